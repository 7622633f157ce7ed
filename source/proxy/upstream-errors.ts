/**
 * An upstream error answer, as the client should see it: the provider's message kept (with the
 * channel's real key scrubbed from it), the status mapped so that a client never mistakes a refused
 * provider key for its own bad virtual key. The one place upstream errors are decoded and mapped.
 */
import {GatewayError} from '../base/errors.js';
import type {IRError} from '../base/ir.js';
import type {ChannelRecord} from '../base/records.js';
import {maskSecret} from '../base/secrets.js';
import type {InboundAdapter} from '../formats/adapter.js';
import {parseJson} from '../formats/wire.js';
import type {Route} from './routing.js';
import {failed, type Attempt, type AttemptResult, type ChannelFault} from './attempt.js';

/** Remove the channel's real key from a provider's message at once (every other key is masked on the way out, by the snapshot's Scrubber). */
function scrub(text: string, channel: Pick<ChannelRecord, 'apiKey'>): string {
	return channel.apiKey && channel.apiKey.length >= 4 ? text.split(channel.apiKey).join(maskSecret(channel.apiKey)) : text;
}

/** An answer's JSON, or its text when it is not JSON (an error decoder still reads a provider's plain-text error). */
export function jsonOrText(text: string): unknown {
	return parseJson(text) ?? text;
}

export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** A response's headers as undici gives them. */
type ResponseHeaders = Record<string, string | string[] | undefined>;

/** Decode an error answer in the wire it came in (`wire`), then map it for the client. */
export function upstreamError(route: Route, wire: Pick<InboundAdapter, 'decodeError'>, status: number, text: string, headers: ResponseHeaders): GatewayError {
	return mapUpstreamError(route, wire.decodeError(status, jsonOrText(text)), headerValue(headers, 'retry-after'));
}

/**
 * A provider's error answer as the attempt's failure. One for a model its provider no longer has
 * goes on to the next channel that serves the model, if there is one — without counting against
 * this channel, whose other models still work.
 */
export function errorFailure(attempt: Attempt, wire: Pick<InboundAdapter, 'decodeError'>, status: number, text: string, headers: ResponseHeaders, fault: ChannelFault | null): AttemptResult {
	const decoded = wire.decodeError(status, jsonOrText(text));
	return failOverMissingModel(attempt, decoded) ?? failed(mapUpstreamError(attempt.route, decoded, headerValue(headers, 'retry-after')), false, fault);
}

/**
 * The failure that sends the request on to the next channel when this one's provider has no such
 * model (and another channel may take it); null otherwise. The missing model is remembered either
 * way — the status bar and `serve` say it once, the Channels pane shows it — the last channel
 * serving it too, whose answer then goes to the client.
 */
export function failOverMissingModel(attempt: Attempt, decoded: IRError): AttemptResult | null {
	const {route, canFailOver} = attempt;
	if (!modelMissing(decoded, route.upstreamModel)) return null;
	attempt.services.health.modelMissing(route.channel, route.upstreamModel, canFailOver);
	if (!canFailOver) return null;
	const name = route.channel.name;
	attempt.ctx.warn(`channel "${name}" has no model "${route.upstreamModel}" any more (its provider answered HTTP 404), so the request went on to the next channel serving "${attempt.call.model}": \`gateway-tui channels test ${name}\` names its missing models`);
	return failed(mapUpstreamError(route, decoded, undefined), true);
}

/**
 * Whether a provider's 404 is about the model the channel sent: its code says so (OpenAI's
 * `model_not_found`), or its message names the model (Anthropic's `model: NAME`, Gemini's
 * `models/NAME is not found…`) — a retired or renamed model, the day after its retirement date.
 */
function modelMissing(decoded: IRError, upstreamModel: string): boolean {
	return decoded.status === 404 && (decoded.code === 'model_not_found' || (upstreamModel !== '' && decoded.message.includes(upstreamModel)));
}

export function mapUpstreamError(route: Route, decoded: IRError, retryAfter: string | undefined): GatewayError {
	const {channel} = route;
	const message = scrub(decoded.message, channel);
	const status = decoded.status;
	if (status === 401 || status === 403) {
		return new GatewayError('upstream', 502, `Channel "${channel.name}" refused its provider API key (HTTP ${status}: ${message}). Update the key with \`gateway-tui channels edit ${channel.name} --api-key …\`.`, {code: 'upstream_auth_failed'});
	}
	if (status === 429) {
		return new GatewayError(decoded.kind === 'insufficient_quota' ? 'insufficient_quota' : 'rate_limit', 429, `Channel "${channel.name}" is rate limited by the provider: ${message}`, {code: decoded.code ?? 'rate_limit_exceeded', retryAfter});
	}
	if (status >= 500) {
		return new GatewayError(decoded.kind === 'overloaded' ? 'overloaded' : 'upstream', 502, `Channel "${channel.name}" failed (HTTP ${status}: ${message}). Try again later.`, {code: 'upstream_error', retryAfter});
	}
	const kind = decoded.kind === 'upstream' || decoded.kind === 'internal' ? 'invalid_request' : decoded.kind;
	if (modelMissing(decoded, route.upstreamModel)) {
		const what = `The provider of channel "${channel.name}" has no model "${route.upstreamModel}" (retired or renamed?): HTTP ${status}: ${message.replace(/\.$/, '')}.`;
		const next = `\`gateway-tui channels test ${channel.name}\` names the models its provider lists instead; \`gateway-tui channels edit ${channel.name} --remove-models ${route.upstreamModel} --add-models NEW\` swaps it.`;
		return new GatewayError(kind, status, `${what} ${next}`, {code: 'model_not_found', param: 'model'});
	}
	return new GatewayError(kind, status, `The provider of channel "${channel.name}" rejected the request: ${message}`, {code: decoded.code, param: decoded.param});
}
