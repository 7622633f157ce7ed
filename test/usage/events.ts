/** Synthetic `request:finished` events for recorder and CLI tests (real traffic is in sdk-usage.test.ts). */
import type {RequestFinished} from '../../source/base/events.js';

let counter = 0;

export function finished(overrides: Partial<RequestFinished> = {}): RequestFinished {
	counter += 1;
	return {
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
		...overrides,
	};
}

/** An ISO time `ms` before now. */
export const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();
