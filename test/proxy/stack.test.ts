/**
 * The HTTP stack's bundle (source/proxy/stack-bundle.cts) loads undici's modules one by one instead
 * of its index (which loads all of undici). They must be undici's own classes — the ones its index
 * exports — and an Agent from there must have the request API the index puts on every dispatcher;
 * Fastify is Fastify.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import Fastify from 'fastify';
import * as undici from 'undici';
import * as stack from '../../source/proxy/stack.js';

const {Agent, errors, redirect} = stack;

test('the undici parts are the classes undici exports, and an Agent from them can make a request', async () => {
	assert.equal(Agent, undici.Agent);
	assert.equal(errors, undici.errors);
	assert.equal(redirect, undici.interceptors.redirect);
	assert.equal(stack.Fastify, Fastify);
	const server = createServer((req, res) => {
		if (req.url === '/moved') return void res.writeHead(302, {location: '/here'}).end();
		res.writeHead(200, {'content-type': 'text/plain'}).end(`reached ${req.url}`);
	});
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const agent = new Agent();
	const following = new Agent().compose(redirect({maxRedirections: 1}));
	try {
		const answer = await agent.request({origin, path: '/direct', method: 'GET'});
		assert.equal(answer.statusCode, 200);
		assert.equal(await answer.body.text(), 'reached /direct');
		const moved = await following.request({origin, path: '/moved', method: 'GET'});
		assert.equal(await moved.body.text(), 'reached /here');
	} finally {
		await agent.close();
		await following.close();
		server.close();
	}
});
