/**
 * The test servers' port handling: a port found free can be taken by a test file running beside
 * this one before the server binds it; the server is then started again on another port, and only
 * for that failure.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer, type Server} from 'node:net';
import {onFreePort, redisMissing, startRedis} from '../helpers/servers.js';

test('a server that finds its port taken is started again on another one', async () => {
	const tried: number[] = [];
	const started = await onFreePort(async port => {
		tried.push(port);
		if (tried.length < 3) throw new Error(`redis-server exited with 1 before it was ready:\nCould not create server TCP listening socket 127.0.0.1:${port}: bind: Address already in use`);
		return port;
	});
	assert.equal(tried.length, 3);
	assert.equal(started, tried[2]);
});

test('any other failure, and the last of the attempts, is passed on as it is', async () => {
	let calls = 0;
	await assert.rejects(onFreePort(async () => {
		calls++;
		throw new Error('initdb failed: permission denied');
	}), /permission denied/);
	assert.equal(calls, 1);
	calls = 0;
	await assert.rejects(onFreePort(async () => {
		calls++;
		throw new Error('Address already in use');
	}, 2), /Address already in use/);
	assert.equal(calls, 2);
});

test('redis-server on a taken port says so in words the retry recognises', {skip: redisMissing ?? false}, async () => {
	const holder: Server = createServer();
	await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve));
	const address = holder.address();
	assert.ok(address && typeof address === 'object');
	try {
		await assert.rejects(startRedis({port: address.port}), /address already in use/i);
	} finally {
		await new Promise(resolve => holder.close(resolve));
	}
});
