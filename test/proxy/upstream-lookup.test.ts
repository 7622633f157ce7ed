/**
 * Provider host names are resolved once per burst of new connections (source/proxy/upstream-lookup.ts):
 * lookups in flight at once share one call to the resolver, its answer serves the next connections
 * for a while, and a failure reaches every waiting connection without being kept. Checked on the
 * cache itself, and through real connections: concurrent calls to a provider named `localhost`
 * open one connection each and ask the operating system's resolver once.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import dns, {type LookupAddress, type LookupAllOptions} from 'node:dns';
import {createServer} from 'node:http';
import type {AddressInfo, Socket} from 'node:net';
import type {ChannelRecord} from '../../source/base/records.js';
import {LookupCache} from '../../source/proxy/upstream-lookup.js';
import {callUpstream, UpstreamPools} from '../../source/proxy/upstream.js';

type Asked = {hostname: string; options: LookupAllOptions; answer: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void};

/** A resolver that answers when the test says so, and remembers what it was asked. */
function heldResolver() {
	const asked: Asked[] = [];
	return {asked, resolve: (hostname: string, options: LookupAllOptions, answer: Asked['answer']) => void asked.push({hostname, options, answer})};
}

const lookupAll = (cache: LookupCache, hostname: string) =>
	new Promise<LookupAddress[]>((resolve, reject) => cache.lookup(hostname, {all: true, family: 0, hints: dns.ADDRCONFIG}, (error, addresses) => (error ? reject(error) : resolve(addresses as LookupAddress[]))));
const lookupOne = (cache: LookupCache, hostname: string) =>
	new Promise<[string, number | undefined]>((resolve, reject) => cache.lookup(hostname, {family: 0, hints: dns.ADDRCONFIG}, (error, address, family) => (error ? reject(error) : resolve([address as string, family]))));

const answer: LookupAddress[] = [{address: '192.0.2.7', family: 4}, {address: '2001:db8::7', family: 6}];

test('lookups of one host in flight together share one resolver call; each gets the answer in the form it asked for', async () => {
	const resolver = heldResolver();
	const cache = new LookupCache({resolve: resolver.resolve});
	const all = Array.from({length: 20}, () => lookupAll(cache, 'api.example.test'));
	const one = lookupOne(cache, 'api.example.test');
	assert.equal(resolver.asked.length, 1);
	assert.deepEqual(resolver.asked[0]!.options, {family: 0, hints: dns.ADDRCONFIG, all: true});
	resolver.asked[0]!.answer(null, answer);
	for (const addresses of await Promise.all(all)) assert.deepEqual(addresses, answer);
	assert.deepEqual(await one, ['192.0.2.7', 4]);
});

test('the answer serves later connections until it is ttlMs old; then the resolver is asked again', async () => {
	let now = 1_000;
	const resolver = heldResolver();
	const cache = new LookupCache({resolve: resolver.resolve, ttlMs: 10_000, now: () => now});
	const first = lookupAll(cache, 'api.example.test');
	resolver.asked[0]!.answer(null, answer);
	await first;
	now += 9_999;
	assert.deepEqual(await lookupAll(cache, 'api.example.test'), answer);
	assert.equal(resolver.asked.length, 1);
	// Another host, and the same host asked for one family only, are other entries.
	void lookupAll(cache, 'other.example.test');
	void new Promise(resolve => cache.lookup('api.example.test', {family: 4, all: true}, resolve));
	assert.equal(resolver.asked.length, 3);
	now += 1;
	void lookupAll(cache, 'api.example.test');
	assert.equal(resolver.asked.length, 4);
});

test('a failure reaches every waiting lookup and is not kept: the next connection asks again', async () => {
	const resolver = heldResolver();
	const cache = new LookupCache({resolve: resolver.resolve});
	const waiting = [lookupAll(cache, 'gone.example.test'), lookupOne(cache, 'gone.example.test')];
	resolver.asked[0]!.answer(Object.assign(new Error('getaddrinfo ENOTFOUND gone.example.test'), {code: 'ENOTFOUND'}), []);
	for (const lookup of waiting) await assert.rejects(lookup, {code: 'ENOTFOUND'});
	void lookupAll(cache, 'gone.example.test');
	assert.equal(resolver.asked.length, 2);
});

test('through real connections: 30 concurrent calls to a provider named localhost open 30 connections and resolve the name once', async () => {
	const connections: Socket[] = [];
	let release: () => void = () => {};
	const held = new Promise<void>(resolve => (release = resolve));
	const server = createServer((req, res) => {
		req.resume();
		// Every call holds its connection until all have arrived, as slow streams do.
		void held.then(() => {
			res.writeHead(200, {'content-type': 'application/json'});
			res.end('{"ok":true}');
		});
	});
	server.on('connection', (socket: Socket) => connections.push(socket));
	await new Promise<void>(resolve => server.listen({host: '127.0.0.1', port: 0}, resolve));
	const port = (server.address() as AddressInfo).port;
	const asked: string[] = [];
	const pools = new UpstreamPools({
		lookup: {
			// The operating system's resolver, counted (pinned to IPv4: the server listens on 127.0.0.1 only).
			resolve: (hostname, options, callback) => {
				asked.push(hostname);
				dns.lookup(hostname, {...options, family: 4}, callback);
			},
		},
	});
	const channel: ChannelRecord = {v: 1, id: 'ch_dns', name: 'dns', format: 'openai', baseUrl: `http://localhost:${port}/v1`, apiKey: 'sk-dns-test-key', models: [{name: 'm', upstream: 'm'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};
	try {
		const calls = Array.from({length: 30}, () => callUpstream(pools, {channel, method: 'POST', path: '/chat/completions', body: '{}'}));
		for (let waited = 0; connections.length < 30; waited += 10) {
			if (waited > 10_000) assert.fail(`only ${connections.length} of 30 connections opened`);
			await new Promise(resolve => setTimeout(resolve, 10));
		}
		release();
		for (const response of await Promise.all(calls)) assert.equal(await response.body.text(), '{"ok":true}');
		assert.equal(connections.length, 30);
		assert.deepEqual(asked, ['localhost']);
	} finally {
		release();
		await pools.close();
		server.closeAllConnections();
		await new Promise(resolve => server.close(resolve));
	}
});
