/**
 * A request made with a revoked or expired virtual key is refused (401) and logged under that key's
 * name — the error names it, so does the KEY column — never its secret. An unknown key stays `-`.
 */
import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {keys} from '../../source/store/keys.js';
import {formatRequestLine} from '../../source/base/request-line.js';
import type {RequestFinished} from '../../source/base/events.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';
import {generateRequest, send} from '../helpers/wire.js';

let gateway: TestGateway;
let expired = {id: '', secret: ''};
let revoked = {id: '', secret: ''};

before(async () => {
	gateway = await startTestGateway();
	const old = await gateway.createKey({name: 'old-laptop'});
	await keys(gateway.store).set(old.id, {...old, expiresAt: '2020-01-01T00:00:00.000Z'});
	const gone = await gateway.createKey({name: 'ci-gone'});
	await keys(gateway.store).set(gone.id, {...gone, revokedAt: new Date().toISOString()});
	await gateway.registry.refresh();
	expired = old;
	revoked = gone;
});
after(() => gateway.close());

async function call(key: string): Promise<RequestFinished> {
	const finished = gateway.nextFinished();
	const response = await send(...generateRequest('openai', gateway.url, 'm', key));
	assert.equal(response.status, 401);
	return finished;
}

test('a revoked key: the 401 is logged with its name and id, never its secret', async () => {
	const event = await call(revoked.secret);
	assert.equal(event.keyName, 'ci-gone');
	assert.equal(event.keyId, revoked.id);
	assert.match(event.error ?? '', /"ci-gone" was revoked/);
	assert.equal(event.eventType, 'rejected');
	assert.match(formatRequestLine(event), /key=ci-gone/);
	assert.ok(!JSON.stringify(event).includes(revoked.secret.slice(0, 16)));
});

test('an expired key: the 401 is logged with its name', async () => {
	const event = await call(expired.secret);
	assert.equal(event.keyName, 'old-laptop');
	assert.equal(event.keyId, expired.id);
	assert.match(event.error ?? '', /"old-laptop" expired/);
});

test('an unknown key stays unnamed', async () => {
	const event = await call('sk-gtui-notakeynotakeynotakeynotakey0000');
	assert.equal(event.keyName, null);
	assert.equal(event.keyId, null);
});
