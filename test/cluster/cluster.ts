/**
 * Two (or more) real gateway processes on one store, as a team runs them: `node dist/cli.js serve`
 * with GATEWAY_TUI_STORE set to the same Redis or PostgreSQL URL, each with its own home and port,
 * and a fake OpenAI provider priced so that each answer (11 input + 7 output tokens) costs $0.018.
 * The test process opens the same store to create keys and channels, as `gateway-tui keys …` in
 * another shell would. Run `npm run build` first: the processes run the built `dist/cli.js`.
 */
import {rmSync} from 'node:fs';
import type {ChildProcess} from 'node:child_process';
import {startServe, stopChild} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {generateRequest, send, type Sent} from '../helpers/wire.js';
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';

export type RunningGateway = {readonly url: string; readonly child: ChildProcess; stderr(): string; stdout(): string};

export type Cluster = {
	readonly store: Store;
	readonly provider: FakeProvider;
	readonly gateways: RunningGateway[];
	/** One chat completion for `gpt-4o-mini` through gateway `index` with `secret`. */
	ask(index: number, secret: string): Promise<Sent>;
	close(): Promise<void>;
};

/** `env` goes to every gateway, `envOf(index)` to one (e.g. one failing open, the other closed). */
export async function startCluster(url: string, options: {count?: number; env?: Record<string, string>; envOf?: (index: number) => Record<string, string>} = {}): Promise<Cluster> {
	const homes: string[] = [];
	const store = await Store.open(url, {home: tempHome()});
	const provider = await startFakeProvider('openai');
	await addChannel(store, {name: 'oa', format: 'openai', baseUrl: provider.url, apiKey: provider.apiKey, models: 'gpt-4o-mini', prices: ['gpt-4o-mini=1000/1000']});
	const gateways = await Promise.all(
		Array.from({length: options.count ?? 2}, async (_, index) => {
			const home = tempHome();
			homes.push(home);
			return startServe(['--port', '0'], {GATEWAY_TUI_STORE: url, GATEWAY_TUI_HOME: home, ...options.env, ...options.envOf?.(index)});
		}),
	);
	return {
		store,
		provider,
		gateways,
		ask: (index, secret) => send(...generateRequest('openai', gateways[index]!.url, 'gpt-4o-mini', secret)),
		async close() {
			await Promise.all(gateways.map(gateway => stopChild(gateway.child)));
			await Promise.all([store.close(), provider.close()]);
			for (const home of homes) rmSync(home, {recursive: true, force: true});
		},
	};
}

/** Polls `check` every 20 ms; resolves with the milliseconds it took, or rejects after `ms`. */
export async function within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
	const started = Date.now();
	while (Date.now() - started < ms) {
		if (await check()) return Date.now() - started;
		await new Promise(resolve => setTimeout(resolve, 20));
	}
	throw new Error(`${what}: not within ${ms} ms`);
}
