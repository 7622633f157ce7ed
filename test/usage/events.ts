/** Synthetic `request:finished` events for recorder and CLI tests (real traffic is in sdk-usage.test.ts). */
import {eventTypeOf, type RequestFinished} from '../../source/base/events.js';
import {costOf, priceOf} from '../../source/base/prices.js';
import type {ChannelRecord} from '../../source/base/records.js';

let counter = 0;

/**
 * A finished request as the exchange emits it: its event type derived from its fields and, given the
 * channel, priced with the channel's prices (as the exchange prices a request when it ends).
 */
export function finished(overrides: Partial<RequestFinished> = {}, channel?: Pick<ChannelRecord, 'prices'>): RequestFinished {
	counter += 1;
	const merged: RequestFinished = {
		id: `req_test_${counter}`,
		time: new Date().toISOString(),
		method: 'POST',
		path: '/v1/chat/completions',
		keyId: 'key_a',
		keyName: 'alpha',
		model: 'gpt-4o-mini',
		upstreamModel: 'gpt-4o-mini',
		channelId: 'ch_1',
		channelName: 'oa',
		inboundFormat: 'openai',
		outboundFormat: 'openai',
		stream: false,
		status: 200,
		outcome: 'ok',
		latencyMs: 100,
		ttfbMs: 40,
		usage: {inputTokens: 10, outputTokens: 5},
		error: null,
		warnings: [],
		eventType: 'routed',
		attempts: [],
		costUsd: 0,
		unpriced: false,
		...overrides,
	};
	const attempts = overrides.attempts ?? (merged.channelName ? [merged.channelName] : []);
	const cost = costOf(merged.usage, priceOf(channel, merged.model, merged.upstreamModel));
	return {
		...merged,
		attempts,
		eventType: overrides.eventType ?? eventTypeOf({...merged, attempts}),
		costUsd: overrides.costUsd ?? cost.costUsd,
		unpriced: overrides.unpriced ?? cost.unpriced,
	};
}

/** An ISO time `ms` before now. */
export const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();
