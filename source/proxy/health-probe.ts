/**
 * The optional active health check: every interval, one cheap call (the model list) to each enabled
 * channel, feeding the same circuit breaker as real requests. Off unless `serve --probe-every` is given.
 * What the list says of a channel's models — one it no longer names, one it retires — is a warning,
 * once per channel, model and finding for as long as the gateway runs (`serve` prints it, the TUI
 * shows it), so a gateway left running hears of a retirement before its requests fail. Each round's
 * results go to `keep` (the gateway keeps them as the channels' last tests); a failure to keep them
 * is a warning, once.
 */
import {channelWarning, type EventBus, type GatewayWarning} from '../base/events.js';
import {reasonOf} from '../store/backend.js';
import type {ProbeRound} from '../store/channel-tests.js';
import type {ChannelRecord} from '../base/records.js';
import {listsAlike, type ProbeResult} from '../base/probe-result.js';
import type {ChannelHealth} from './health.js';
import type {Registry} from './registry.js';
import {probeChannel} from './probe.js';
import type {UpstreamPools} from './upstream.js';

export function startHealthProbe(registry: Registry, health: ChannelHealth, pools: UpstreamPools, intervalMs: number, events?: EventBus, keep?: (round: ProbeRound) => Promise<unknown>): () => void {
	let running = false;
	const said = new Set<string>();
	const warnOnce = (channel: ChannelRecord, what: string, warning: GatewayWarning) => {
		const id = `${channel.id}\n${what}`;
		if (said.has(id)) return;
		said.add(id);
		events?.emit('warning', warning);
	};
	const timer = setInterval(async () => {
		if (running) return;
		running = true;
		try {
			const round = await Promise.all(
				registry.snapshot.channels
					.filter(channel => channel.enabled)
					.map(async channel => {
						const result = await probeChannel(channel, pools);
						if (!result.ok) health.failed(channel, result.status === 429 ? 'rate_limit' : result.status === undefined ? 'connect' : 'server', `probe: ${result.error}`);
						else {
							health.succeeded(channel);
							modelWarnings(channel, result, warnOnce);
						}
						return {channel, result};
					}),
			);
			await keep?.(round).catch((error: unknown) => {
				if (said.has('keep')) return;
				said.add('keep');
				events?.emit('warning', {message: `The channels' checks (--probe-every) could not be kept in the store (${reasonOf(error)}): they still count for the channels' health, but \`channels show\` and other terminals show an older test. Check the store; the next rounds try again.`});
			});
		} finally {
			running = false;
		}
	}, intervalMs);
	timer.unref();
	return () => clearInterval(timer);
}

function modelWarnings(channel: ChannelRecord, result: Extract<ProbeResult, {ok: true}>, warn: (channel: ChannelRecord, what: string, warning: GatewayWarning) => void): void {
	for (const model of result.unlisted) {
		// The step before the explanation: in the TUI's two status lines a long message is cut at its end.
		warn(channel, `unlisted\n${model}`, channelWarning(`channel "${channel.name}": its provider no longer lists ${model}${listsAlike(result, model)}; change the channel's models (`, channel.name, 'edit', '): requests for it fail if it was retired or the key may not use it.'));
	}
	for (const {model, retiresAt} of result.retiring) {
		const what = retiresAt ? `retires ${model} on ${retiresAt.slice(0, 10)}` : `deprecates ${model} (no retirement date yet)`;
		warn(channel, `retiring\n${model}\n${retiresAt ?? ''}`, channelWarning(`channel "${channel.name}": its provider ${what} — move to a newer model${listsAlike(result, model)}: `, channel.name, 'edit', '.'));
	}
}
