/**
 * `serve --probe-every`: each enabled channel's model list on an interval. A channel whose provider
 * refuses the call turns unavailable before any request fails on it; one whose list no longer names
 * a model, or retires one, is a warning — once, not at every probe.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, tempHome} from '../helpers/gateway.js';
import {rmSync} from 'node:fs';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {EventBus} from '../../source/base/events.js';
import {startCoreWorker} from '../../source/proxy/worker-host.js';
import {eventually} from '../helpers/sdks.js';
import {readChannelTests} from '../../source/store/channel-tests.js';
import {warningText} from '../../source/ui/hooks/use-status.js';
import {statusMessageLines} from '../../source/ui/components/chrome.js';

test('probes every interval: a refused key opens the circuit; a model the list does not name and one it retires warn once each', async () => {
	const anthropic = await startFakeProvider('anthropic', {models: ['claude-sonnet-4-5-20250929', 'claude-sonnet-5-5'], deprecated: {'claude-sonnet-4-5-20250929': '2026-11-30T00:00:00Z'}});
	const gateway = await startTestGateway({probeEveryMs: 50});
	const warnings: string[] = [];
	const inTui: string[] = [];
	gateway.events.on('warning', warning => {
		warnings.push(warning.message);
		inTui.push(statusMessageLines(warningText(warning), 80).join(' '));
	});
	const changes: string[] = [];
	gateway.events.on('store:changed', ({revision}) => changes.push(revision));
	try {
		const claude = await gateway.addProvider(anthropic, {name: 'claude', models: 'claude-sonnet-4-5,claude-sonnet-5-5,claude-opus-9'});
		const refused = await gateway.addProvider(anthropic, {name: 'refused', apiKey: 'sk-ant-wrong-key-000000', models: 'claude-sonnet-5-5'});
		await eventually(() => gateway.health.stateOf(refused) === 'unavailable', 5000, 'the refused channel unavailable from probes alone');
		const probes = () => anthropic.received.filter(request => request.path === '/v1/models').length;
		const after = probes();
		await eventually(() => probes() >= after + 6, 5000, 'three more rounds of probes');
		assert.equal(gateway.health.stateOf(claude), 'healthy');
		assert.deepEqual(warnings, [
			'channel "claude": its provider no longer lists claude-opus-9; change the channel\'s models (`gateway-tui channels edit claude`): requests for it fail if it was retired or the key may not use it.',
			'channel "claude": its provider retires claude-sonnet-4-5 on 2026-11-30 — move to a newer model (it lists claude-sonnet-5-5): `gateway-tui channels edit claude`.',
		]);
		assert.ok(!warnings.some(message => message.includes(anthropic.apiKey)), 'no real key in a warning');
		// The TUI's status bar at 80 columns cuts the explanation, never the step.
		assert.deepEqual(inTui.map(text => text.includes('2, then e on "claude"')), [true, true], inTui.join('\n'));
		// Each round is kept as the channels' last tests (channels show, the TUI's details).
		const kept = await readChannelTests(gateway.store);
		assert.deepEqual([kept.get(claude.id)?.by, kept.get(claude.id)?.result.ok, kept.get(refused.id)?.by, kept.get(refused.id)?.result.ok], ['probe', true, 'probe', false]);
		const found = kept.get(claude.id)?.result;
		assert.deepEqual(found?.ok && found.unlisted, ['claude-opus-9']);
		assert.ok(!JSON.stringify([...kept.values()]).includes('sk-ant-wrong-key-000000'), 'no key in what is kept');
		// Rounds that find what was kept leave the revision (other processes do not reload) but tell this process's UI.
		const revision = await gateway.store.revision();
		const told = changes.length;
		await eventually(() => changes.length >= told + 2, 5000, 'two more rounds told to this process');
		assert.equal(await gateway.store.revision(), revision, 'the revision did not move');
		const later = await readChannelTests(gateway.store);
		assert.ok(later.get(claude.id)!.at > kept.get(claude.id)!.at, "each round's time is kept");
	} finally {
		await gateway.close();
		await anthropic.close();
	}
});

test("the TUI's core, in its worker thread, probes with --probe-every too, and its warnings reach the UI thread's events", async () => {
	const anthropic = await startFakeProvider('anthropic', {models: ['claude-sonnet-4-5-20250929'], deprecated: {'claude-sonnet-4-5-20250929': '2026-11-30T00:00:00Z'}});
	const home = tempHome();
	const store = await Store.open(home, {home});
	await addChannel(store, {name: 'claude', format: 'anthropic', baseUrl: anthropic.url, apiKey: anthropic.apiKey, models: 'claude-sonnet-4-5'});
	await store.close();
	const events = new EventBus();
	const warnings: string[] = [];
	const shown: string[] = [];
	events.on('warning', warning => {
		warnings.push(warning.message);
		shown.push(warningText(warning));
	});
	const core = await startCoreWorker({home, host: '127.0.0.1', port: 0, probeEveryMs: 50, events, output: () => {}, onCrash: () => {}, loader: new URL('../helpers/ts-worker.mjs', import.meta.url)});
	try {
		await eventually(() => warnings.length > 0, 10_000, 'the probe warning on the UI thread');
		assert.deepEqual(warnings, ['channel "claude": its provider retires claude-sonnet-4-5 on 2026-11-30 — move to a newer model: `gateway-tui channels edit claude`.']);
		// Its step crossed the thread too: the status bar says it with the TUI's pane and key.
		assert.deepEqual(shown, ['channel "claude": its provider retires claude-sonnet-4-5 on 2026-11-30 — move to a newer model: 2, then e on "claude".']);
	} finally {
		await core.close();
		await anthropic.close();
		rmSync(home, {recursive: true, force: true});
	}
});
