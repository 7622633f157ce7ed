/**
 * Two real gateway processes on one Redis, then on one PostgreSQL: keys created or revoked in the
 * store reach both within about a second, `--rpm 10` holds across both (50 concurrent requests
 * admit exactly 10), a budget spent through one is refused by the other, and `usage --by key` sums
 * the traffic of both and says that two instances contributed.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {createKey, editKey, revokeKey} from '../../source/services/keys.js';
import {windowsOf} from '../../source/proxy/shared-limits.js';
import {runCli} from '../helpers/cli.js';
import {storeKinds} from '../store/stores.js';
import {startCluster, within} from './cluster.js';

const {kinds} = storeKinds();

type ErrorBody = {error: {code?: string; message: string}};

/** Start a burst early enough in a clock minute that the minute cannot roll over during it. */
async function awayFromMinuteEnd(): Promise<void> {
	const left = 60_000 - (Date.now() % 60_000);
	if (left < 8000) await new Promise(resolve => setTimeout(resolve, left + 100));
}

for (const kind of kinds.filter(item => item.name !== 'sqlite')) {
	test(`${kind.name}: two gateway processes share keys, limits, budgets and usage`, {skip: kind.skip, timeout: 120_000}, async t => {
		const url = await kind.freshUrl();
		const cluster = await startCluster(url);
		try {
			await t.test('a key created in the store is usable through both gateways within a second', async () => {
				const key = await createKey(cluster.store, {name: 'new'});
				for (const index of [0, 1]) {
					const ms = await within(1200, `gateway ${index} accepts the new key`, async () => (await cluster.ask(index, key.secret)).status === 200);
					t.diagnostic(`gateway ${index}: the new key worked after ${ms} ms`);
				}
			});

			await t.test('a key revoked in the store is refused by both gateways within a second', async () => {
				const key = await createKey(cluster.store, {name: 'leaving'});
				await within(1200, 'both accept it', async () => (await cluster.ask(0, key.secret)).status === 200 && (await cluster.ask(1, key.secret)).status === 200);
				await revokeKey(cluster.store, 'leaving');
				for (const index of [0, 1]) {
					const ms = await within(1200, `gateway ${index} refuses the revoked key`, async () => (await cluster.ask(index, key.secret)).status === 401);
					const refused = await cluster.ask(index, key.secret);
					assert.match((refused.body as ErrorBody).error.message, /The virtual key "leaving" was revoked at/);
					t.diagnostic(`gateway ${index}: refused after ${ms} ms`);
				}
			});

			await t.test('--rpm 10: 50 concurrent requests split over both gateways admit exactly 10', async () => {
				const key = await createKey(cluster.store, {name: 'ci', rpm: '10'});
				// Both gateways reload keys within a second; asking with the key itself would spend its limit.
				await new Promise(resolve => setTimeout(resolve, 1100));
				await awayFromMinuteEnd();
				const answers = await Promise.all(Array.from({length: 50}, (_, index) => cluster.ask(index % 2, key.secret)));
				const statuses = answers.map(answer => answer.status);
				assert.equal(statuses.filter(status => status === 200).length, 10, statuses.join(' '));
				assert.equal(statuses.filter(status => status === 429).length, 40, statuses.join(' '));
				const refusal = answers.find(answer => answer.status === 429)!;
				assert.match((refusal.body as ErrorBody).error.message, /The virtual key "ci" is over its limit of 10 requests per minute \(used 10\)\. It resets in \d+ s/);
				assert.match(refusal.headers.get('retry-after') ?? '', /^\d+$/);
				const byGateway = [0, 1].map(gateway => answers.filter((answer, index) => index % 2 === gateway && answer.status === 200).length);
				t.diagnostic(`admitted per gateway: ${byGateway.join(' + ')}`);
			});

			await t.test('a budget spent through one gateway is refused by the other', async () => {
				const key = await createKey(cluster.store, {name: 'agent', budget: '0.05/day'});
				await new Promise(resolve => setTimeout(resolve, 1100));
				// $0.018 a request: after three, $0.054 of $0.05 is spent.
				for (let index = 0; index < 3; index++) assert.equal((await cluster.ask(0, key.secret)).status, 200);
				const counters = cluster.store.counters(2000)!;
				const zero = {rpm: 0, rpd: 0, tpm: 0, tpd: 0, spendUsd: 0};
				await within(2000, 'the spend reaches the shared counters', async () => (await counters.seed(key.id, windowsOf(key, Date.now()), zero)).spendUsd >= 0.05);
				const refused = await cluster.ask(1, key.secret);
				assert.equal(refused.status, 429, refused.text);
				assert.equal((refused.body as ErrorBody).error.code, 'insufficient_quota');
				assert.match((refused.body as ErrorBody).error.message, /The virtual key "agent" has spent \$0\.05 of its \$0\.05 budget today\. It resets in/);
				assert.equal((await cluster.ask(0, key.secret)).status, 429, 'and by the one that spent it');
			});

			await t.test('a budget added to a key that already spent counts that spend on both gateways, not from zero', async () => {
				const key = await createKey(cluster.store, {name: 'late'});
				await new Promise(resolve => setTimeout(resolve, 1100));
				// $0.054 spent through gateway 0 before the key has any limit.
				for (let index = 0; index < 3; index++) assert.equal((await cluster.ask(0, key.secret)).status, 200);
				await new Promise(resolve => setTimeout(resolve, 700)); // the usage flush (500 ms)
				await editKey(cluster.store, 'late', {budget: '0.05/day'});
				// Both gateways apply the new limits within a second, each having seeded the shared counters first.
				await new Promise(resolve => setTimeout(resolve, 1500));
				for (const index of [1, 0]) {
					const refused = await cluster.ask(index, key.secret);
					assert.equal(refused.status, 429, refused.text);
					assert.match((refused.body as ErrorBody).error.message, /The virtual key "late" has spent \$0\.05 of its \$0\.05 budget today/);
				}
			});

			await t.test('usage --by key sums the traffic of both gateways and says two instances contributed', async () => {
				const key = await createKey(cluster.store, {name: 'both-2'});
				await new Promise(resolve => setTimeout(resolve, 1100));
				for (const index of [0, 0, 0, 1, 1]) assert.equal((await cluster.ask(index, key.secret)).status, 200);
				const env = {GATEWAY_TUI_STORE: url};
				let row: {key: string; requests: number; instances: number; costUsd: number} | undefined;
				await within(5000, 'usage shows the five requests', async () => {
					const rows = JSON.parse((await runCli(['usage', '--by', 'key', '--json'], env)).stdout) as Array<NonNullable<typeof row>>;
					row = rows.find(item => item.key === 'both-2');
					return row?.requests === 5 && row.instances === 2;
				});
				assert.ok(Math.abs(row!.costUsd - 0.09) < 1e-9, String(row!.costUsd));
				const table = await runCli(['usage', '--by', 'key'], env);
				assert.match(table.stdout, /^both-2\s+5\s+5\s+0\s+0\s+55\s+35\s/m);
				assert.match(table.stdout, /Summed over 2 gateway instances \(each gateway process writes its own totals to the store\)\./);
			});

			for (const [index, gateway] of cluster.gateways.entries()) assert.equal(gateway.child.exitCode, null, `gateway ${index} still runs: ${gateway.stderr()}`);
		} finally {
			await cluster.close();
		}
	});
}
