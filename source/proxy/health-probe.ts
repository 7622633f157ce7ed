/**
 * The optional active health check: every interval, one cheap call (the model list) to each enabled
 * channel, feeding the same circuit breaker as real requests. Off unless `serve --probe-every` is given.
 */
import type {ChannelHealth} from './health.js';
import type {Registry} from './registry.js';
import {probeChannel} from './probe.js';
import type {UpstreamPools} from './upstream.js';

export function startHealthProbe(registry: Registry, health: ChannelHealth, pools: UpstreamPools, intervalMs: number): () => void {
	let running = false;
	const timer = setInterval(async () => {
		if (running) return;
		running = true;
		try {
			await Promise.all(
				registry.snapshot.channels
					.filter(channel => channel.enabled)
					.map(async channel => {
						const result = await probeChannel(channel, pools);
						if (result.ok) health.succeeded(channel);
						else health.failed(channel, result.status === 429 ? 'rate_limit' : result.status === undefined ? 'connect' : 'server', `probe: ${result.error}`);
					}),
			);
		} finally {
			running = false;
		}
	}, intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}
