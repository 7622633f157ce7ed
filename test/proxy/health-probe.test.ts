/**
 * `serve --probe-every`: each enabled channel's model list on an interval. A channel whose provider
 * refuses the call turns unavailable before any request fails on it; one whose list no longer names
 * a model, or retires one, is a warning — once, not at every probe.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {startFakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway} from '../helpers/gateway.js';
import {eventually} from '../helpers/sdks.js';

test('probes every interval: a refused key opens the circuit; a model the list does not name and one it retires warn once each', async () => {
	const anthropic = await startFakeProvider('anthropic', {models: ['claude-sonnet-4-5-20250929', 'claude-sonnet-5-5'], deprecated: {'claude-sonnet-4-5-20250929': '2026-11-30T00:00:00Z'}});
	const gateway = await startTestGateway({probeEveryMs: 50});
	const warnings: string[] = [];
	gateway.events.on('warning', ({message}) => warnings.push(message));
	try {
		const claude = await gateway.addProvider(anthropic, {name: 'claude', models: 'claude-sonnet-4-5,claude-sonnet-5-5,claude-opus-9'});
		const refused = await gateway.addProvider(anthropic, {name: 'refused', apiKey: 'sk-ant-wrong-key-000000', models: 'claude-sonnet-5-5'});
		await eventually(() => gateway.health.stateOf(refused) === 'unavailable', 5000, 'the refused channel unavailable from probes alone');
		const probes = () => anthropic.received.filter(request => request.path === '/v1/models').length;
		const after = probes();
		await eventually(() => probes() >= after + 6, 5000, 'three more rounds of probes');
		assert.equal(gateway.health.stateOf(claude), 'healthy');
		assert.deepEqual(warnings, [
			'channel "claude": its provider\'s model list no longer names claude-opus-9 — requests for it fail if it was retired or the key may not use it; change the channel\'s models with `gateway-tui channels edit claude`.',
			'channel "claude": its provider retires claude-sonnet-4-5 on 2026-11-30 — move to a newer model with `gateway-tui channels edit claude`.',
		]);
		assert.ok(!warnings.some(message => message.includes(anthropic.apiKey)), 'no real key in a warning');
	} finally {
		await gateway.close();
		await anthropic.close();
	}
});
