/**
 * A real gateway for tests: a fresh home in a temp dir, the store, the registry and the Fastify proxy
 * listening on 127.0.0.1 (random port), wired exactly as `serve` wires them.
 */
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {RequestFinished} from '../../source/base/events.js';
import {startGateway, defaultRelayOptions, type Gateway, type GatewayOptions} from '../../source/proxy/gateway.js';
import type {RelayOptions} from '../../source/proxy/attempt.js';
import type {Clock} from '../../source/base/clock.js';
import type {HealthOptions} from '../../source/proxy/health.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey, type CreateKeyInput} from '../../source/services/keys.js';
import type {ChannelRecord, KeyRecord} from '../../source/base/records.js';
import type {FakeProvider} from './fake-providers.js';

export type TestGateway = Gateway & {
	readonly home: string;
	readonly finished: RequestFinished[];
	/** Add a channel for a fake provider; `models` default to the provider's models. */
	addProvider(provider: FakeProvider, options?: {name?: string; models?: string; priority?: number; apiKey?: string}): Promise<ChannelRecord>;
	createKey(input?: Partial<CreateKeyInput>): Promise<KeyRecord>;
	/** Resolves with the next request:finished event. */
	nextFinished(): Promise<RequestFinished>;
};

export function tempHome(): string {
	return mkdtempSync(join(tmpdir(), 'gateway-tui-test-'));
}

let counter = 0;

export async function startTestGateway(options: {home?: string; relay?: Partial<RelayOptions>; health?: HealthOptions; clock?: Clock; idleTrim?: GatewayOptions['idleTrim']; probeEveryMs?: number} = {}): Promise<TestGateway> {
	const home = options.home ?? tempHome();
	const gateway = await startGateway({home, host: '127.0.0.1', port: 0, relay: {...defaultRelayOptions, ...options.relay}, health: options.health, clock: options.clock, idleTrim: options.idleTrim, probeEveryMs: options.probeEveryMs});
	const finished: RequestFinished[] = [];
	const waiters: Array<(event: RequestFinished) => void> = [];
	gateway.events.on('request:finished', event => {
		finished.push(event);
		waiters.shift()?.(event);
	});
	const closeGateway = gateway.close.bind(gateway);
	const extra: Omit<TestGateway, keyof Gateway> = {
		home,
		finished,
		async addProvider(provider, extra = {}) {
			const channel = await addChannel(gateway.store, {
				name: extra.name ?? `${provider.format}-${++counter}`,
				format: provider.format,
				baseUrl: provider.url,
				apiKey: extra.apiKey ?? provider.apiKey,
				models: extra.models ?? provider.models.join(','),
				priority: extra.priority,
			});
			await gateway.registry.refresh();
			return channel;
		},
		async createKey(input = {}) {
			const key = await createKey(gateway.store, {name: `key-${++counter}`, ...input});
			await gateway.registry.refresh();
			return key;
		},
		nextFinished() {
			return new Promise(resolve => waiters.push(resolve));
		},
	};
	return Object.assign(gateway, extra, {
		async close() {
			await closeGateway();
			if (!options.home) rmSync(home, {recursive: true, force: true});
		},
	});
}
