/**
 * For the crash tests (a fault injected into `serve` or the TUI's core): a home with an OpenAI channel
 * on a provider that answers at once and a key, traffic from four clients until told to stop, and
 * the check that every answered request reached the store.
 */
import assert from 'node:assert/strict';
import {existsSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {recentRequests} from '../../source/store/usage-summary.js';
import {tempHome} from './gateway.js';
import {json, startFaulty} from './faulty-providers.js';

export type CrashHome = {readonly home: string; readonly secret: string; close(): Promise<void>};

export async function crashHome(): Promise<CrashHome> {
	const home = tempHome();
	const provider = await startFaulty(json(200, {id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{index: 0, message: {role: 'assistant', content: 'ok'}, finish_reason: 'stop'}], usage: {prompt_tokens: 3, completion_tokens: 1, total_tokens: 4}}));
	const store = await Store.open(home, {home});
	await addChannel(store, {name: 'up', format: 'openai', baseUrl: `${provider.url}/v1`, apiKey: 'sk-real-key-crash-0123456789', models: 'm'});
	const key = await createKey(store, {name: 'crash'});
	await store.close();
	return {
		home,
		secret: key.secret,
		async close() {
			await provider.close();
			rmSync(home, {recursive: true, force: true});
		},
	};
}

/** Where the fault's trigger file goes (fault-after.mjs, GATEWAY_TUI_TEST_FAULT_FILE): written by `trafficUntil` once `faultAfter` requests were answered. */
export const faultFile = (home: string) => join(home, 'fault-now');

/** How many answered requests the traffic waits for before it sets the fault off. */
const faultAfter = 40;

/**
 * Four clients calling `url` until `stopped()`; resolves to how many were answered 200 with a
 * completion. Given `fault` (a file the process under test watches), it is written once 40 were
 * answered, and the clients go on calling while the fault strikes.
 */
export async function trafficUntil(url: string, secret: string, stopped: () => boolean, fault?: string): Promise<number> {
	let served = 0;
	const answered = () => {
		served += 1;
		if (fault && served === faultAfter) writeFileSync(fault, '');
	};
	const client = async () => {
		while (!stopped()) {
			try {
				const response = await fetch(`${url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'm', messages: [{role: 'user', content: 'hello'}]})});
				const text = await response.text();
				if (response.status === 200 && text.includes('chat.completion')) answered();
			} catch {
				// the gateway is going
			}
		}
	};
	await Promise.all([client(), client(), client(), client()]);
	return served;
}

/** The store was closed (no write-ahead log left) and holds every answered request (but one, answered in the instant before its record). */
export async function assertAllStored(home: string, served: number): Promise<void> {
	assert.ok(served > 20, `only ${served} requests were answered before the fault`);
	assert.equal(existsSync(join(home, 'gateway.sqlite-wal')), false, 'the store was left open');
	const reopened = await Store.open(home, {home});
	const stored = (await recentRequests(reopened, 100_000)).filter(record => record.status === 200).length;
	await reopened.close();
	assert.ok(stored >= served - 1, `${served} requests were answered before the crash, ${stored} are in the store`);
}
