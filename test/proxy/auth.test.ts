import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {formats, type Format} from '../../source/base/ir.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {generateRequest, send, errorMessage} from '../helpers/wire.js';
import {addChannel} from '../../source/services/channels.js';
import {keys} from '../../source/store/keys.js';
import {createKey} from '../../source/services/keys.js';
import {Registry} from '../../source/proxy/registry.js';

let gateway: TestGateway;
const realKey = 'sk-real-provider-key-0123456789';
const presented = {unknown: 'sk-gtui-thisisnotakeythisisnotakeythisisnotakey00'};
let expired: string;
let revoked: string;

before(async () => {
	gateway = await startTestGateway();
	await addChannel(gateway.store, {name: 'up', format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: realKey, models: 'm'});
	const old = await gateway.createKey({name: 'old'});
	await keys(gateway.store).set(old.id, {...old, expiresAt: '2020-01-01T00:00:00.000Z'});
	expired = old.secret;
	const gone = await gateway.createKey({name: 'gone'});
	revoked = gone.secret;
	await keys(gateway.store).set(gone.id, {...gone, revokedAt: new Date().toISOString()});
	await gateway.registry.refresh();
});
after(() => gateway.close());

function assertShape(format: Format, body: unknown, message: RegExp): void {
	switch (format) {
		case 'openai':
			assert.deepEqual(Object.keys((body as {error: object}).error).sort(), ['code', 'message', 'param', 'type']);
			assert.equal((body as {error: {code: string}}).error.code, 'invalid_api_key');
			assert.equal((body as {error: {type: string}}).error.type, 'invalid_request_error');
			break;
		case 'anthropic':
			assert.equal((body as {type: string}).type, 'error');
			assert.equal((body as {error: {type: string}}).error.type, 'authentication_error');
			break;
		case 'gemini':
			assert.equal((body as {error: {code: number}}).error.code, 401);
			assert.equal((body as {error: {status: string}}).error.status, 'UNAUTHENTICATED');
			break;
	}
	assert.match(errorMessage(body), message);
}

for (const format of formats) {
	test(`${format}: every authentication failure is a 401 in the ${format} error shape that never echoes the key`, async () => {
		const cases: Array<[string | undefined, RegExp]> = [
			[undefined, /No API key was sent/],
			[presented.unknown, /not a gateway virtual key/],
			[realKey, /provider's real key, not a gateway virtual key/],
			[expired, /"old" expired at 2020-01-01T00:00:00.000Z/],
			[revoked, /"gone" was revoked at/],
		];
		for (const [key, message] of cases) {
			const response = await send(...generateRequest(format, gateway.url, 'm', key));
			assert.equal(response.status, 401, `${key ?? 'missing'}: ${response.text}`);
			assertShape(format, response.body, message);
			if (key) assert.ok(!response.text.includes(key), 'the presented key is never echoed');
			assert.ok(!response.text.includes(realKey));
		}
	});
}

test('gemini accepts the key as ?key= and as a Bearer token too; anthropic as Bearer', async () => {
	const key = await gateway.createKey({name: 'alt'});
	const [url, init] = generateRequest('gemini', gateway.url, 'not-configured');
	const viaQuery = await send(`${url}?key=${key.secret}`, init);
	assert.equal(viaQuery.status, 404, 'authenticated, then the model is unknown');
	const viaBearer = await send(url, {...init, headers: {...init.headers, authorization: `Bearer ${key.secret}`}});
	assert.equal(viaBearer.status, 404);
	const [aUrl, aInit] = generateRequest('anthropic', gateway.url, 'not-configured');
	const anthropicBearer = await send(aUrl, {...aInit, headers: {...aInit.headers, authorization: `Bearer ${key.secret}`}});
	assert.equal(anthropicBearer.status, 404);
});

test('a key created in another process (the store changed, the view not yet reloaded) works on its first request', async () => {
	// What `gateway-tui keys create` in a second terminal does: the store only, no word to the running gateway.
	for (const format of formats) {
		const fresh = await createKey(gateway.store, {name: `elsewhere-${format}`});
		const response = await send(...generateRequest(format, gateway.url, 'not-configured', fresh.secret));
		assert.equal(response.status, 404, `${format}: authenticated, then the model is unknown: ${response.text}`);
	}
	// A revoked key stays refused after the reread (the view is current, nothing to reread for it).
	const response = await send(...generateRequest('openai', gateway.url, 'm', revoked));
	assert.equal(response.status, 401);
});

test('a flood of unknown keys costs the store one read at a time, not one per request', async () => {
	const store = gateway.store;
	const revision = store.revision.bind(store);
	let reads = 0;
	let inFlight = 0;
	let most = 0;
	store.revision = async () => {
		reads++;
		most = Math.max(most, ++inFlight);
		try {
			return await revision();
		} finally {
			inFlight--;
		}
	};
	const started = performance.now();
	try {
		const responses = await Promise.all(
			Array.from({length: 200}, (_, index) => send(...generateRequest(formats[index % formats.length]!, gateway.url, 'm', `sk-gtui-unknown-${String(index).padStart(40, '0')}`))),
		);
		for (const response of responses) {
			assert.equal(response.status, 401, response.text);
			assert.match(errorMessage(response.body), /not a gateway virtual key/);
		}
		const elapsed = performance.now() - started;
		assert.equal(most, 1, 'one store read at a time');
		// One read, then reads spaced recheckSpacingMs apart (the poll's reads take the same turns).
		assert.ok(reads <= 2 + elapsed / Registry.recheckSpacingMs, `${reads} store reads in ${elapsed.toFixed(0)} ms for 200 refused requests`);
	} finally {
		store.revision = revision;
	}
});
