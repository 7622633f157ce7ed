/** One cheap call to a channel's model list: for `channels test`, the TUI's `t` and `serve --probe-every`. */
import type {ChannelRecord} from '../base/records.js';
import type {Format} from '../base/ir.js';
import {callUpstream, type UpstreamTimeouts} from './upstream.js';
import type {ProbeResult} from '../base/probe-result.js';

const modelListPaths: Record<Format, string> = {openai: '/models', anthropic: '/v1/models', gemini: '/v1beta/models'};

/** One cheap call to the provider's model list: latency, or the provider's own error message. */
export async function probeChannel(channel: ChannelRecord, timeouts: UpstreamTimeouts = {connectMs: 5000, headersMs: 15_000, bodyMs: 15_000}): Promise<ProbeResult> {
	const started = performance.now();
	const elapsed = () => Math.round(performance.now() - started);
	try {
		const response = await callUpstream({channel, method: 'GET', path: modelListPaths[channel.format], timeouts});
		const text = await response.body.text();
		if (response.statusCode >= 400) {
			return {ok: false, latencyMs: elapsed(), status: response.statusCode, error: `HTTP ${response.statusCode}: ${providerMessage(text)}`};
		}
		return {ok: true, latencyMs: elapsed(), models: countModels(text)};
	} catch (error) {
		return {ok: false, latencyMs: elapsed(), error: error instanceof Error ? error.message : String(error)};
	}
}

/** The human message inside any of the three error shapes, else the raw text (shortened). */
export function providerMessage(text: string): string {
	try {
		const body: unknown = JSON.parse(text);
		const error = (body as {error?: unknown}).error;
		const message = (error as {message?: unknown} | undefined)?.message;
		if (typeof message === 'string') return message;
	} catch {
		// not JSON: fall through to the raw text
	}
	return text.length > 200 ? `${text.slice(0, 200)}…` : text || '(empty body)';
}

function countModels(text: string): number {
	try {
		const body = JSON.parse(text) as {data?: unknown; models?: unknown};
		const list = body.data ?? body.models;
		return Array.isArray(list) ? list.length : 0;
	} catch {
		return 0;
	}
}
