/**
 * Ctrl+C on `serve` whose shared store went away (a Redis or PostgreSQL that stopped): it stops anyway, within
 * seconds, saying on stderr what it could not save. Before, the first shutdown step that failed
 * (withdrawing the channel health) threw out of the shutdown: the upstream pools and the store's
 * reconnecting client stayed open and the process never ended.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {runCli, startServe} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {postgresMissing, redisMissing, startPostgres, startRedis} from '../helpers/servers.js';

const kinds = [
	{name: 'Redis', skip: redisMissing, start: async () => {
		const server = await startRedis();
		return {url: server.freshUrl(), stop: () => server.stop()};
	}},
	{name: 'PostgreSQL', skip: postgresMissing, start: async () => {
		const server = await startPostgres();
		return {url: await server.freshUrl(), stop: () => server.stop()};
	}},
] as const;

for (const kind of kinds) {
	test(`serve stops on Ctrl+C although its ${kind.name} store is gone, and says what it could not save`, {skip: kind.skip ?? false, timeout: 60_000}, async () => {
		const server = await kind.start();
		const home = tempHome();
		const env = {GATEWAY_TUI_HOME: home, GATEWAY_TUI_STORE: server.url};
		let stopped = false;
		try {
			const created = await runCli(['keys', 'create', '--name', 'laptop', '--json'], env);
			assert.equal(created.code, 0, created.stderr);
			const secret = (JSON.parse(created.stdout) as {key: string}).key;
			const serve = await startServe(['--port', '0'], env);
			const closed = new Promise<number | null>(resolve => serve.child.once('close', code => resolve(code)));
			// A request, so that there is usage and a last-used time to save.
			const models = await fetch(`${serve.url}/v1/models`, {headers: {authorization: `Bearer ${secret}`}});
			assert.equal(models.status, 200);
			await models.text();
			await server.stop();
			stopped = true;
			serve.child.kill('SIGINT');
			const deadline = new Promise<'hung'>(resolve => setTimeout(() => resolve('hung'), 15_000).unref());
			const outcome = await Promise.race([closed, deadline]);
			if (outcome === 'hung') serve.child.kill('SIGKILL');
			assert.notEqual(outcome, 'hung', `serve was still running 15 s after Ctrl+C; stderr:\n${serve.stderr()}`);
			assert.match(serve.stderr(), /gateway-tui: shutting down…/);
			assert.match(serve.stderr(), new RegExp(`warning: while stopping, could not [^\\n]+: The store (redis|postgres)://[^\\n]*failed while [^\\n]+Check that the ${kind.name} server is running and reachable`));
			assert.doesNotMatch(serve.stderr(), /r3dis-s3cret|pg-s3cret/, 'the store password is masked');
		} finally {
			if (!stopped) await server.stop();
			rmSync(home, {recursive: true, force: true});
		}
	});
}
