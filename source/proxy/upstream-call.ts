/**
 * One call to the chosen channel, with the channel's health kept up to date and failover decided:
 * a failure before any byte reached the client becomes a RetryableFailure when another channel can
 * take the request; otherwise it is answered as it is.
 */
import {GatewayError} from '../base/errors.js';
import {adapters} from '../formats/index.js';
import {toGatewayError} from './errors.js';
import type {RelayContext} from './relay.js';
import {callUpstream, type UpstreamCall, type UpstreamResponse} from './upstream.js';
import {headerValue, mapUpstreamError, parseJson} from './upstream-errors.js';

/** The request may go to the next channel; `error` is what the client gets if none is left. */
export class RetryableFailure extends Error {
	constructor(readonly error: GatewayError) {
		super(error.message);
		this.name = 'RetryableFailure';
	}
}

/** Call the context's channel. Resolves undefined when the client went away before the answer. */
export async function callChannel(context: RelayContext, call: Omit<UpstreamCall, 'channel' | 'timeouts'>): Promise<UpstreamResponse | undefined> {
	const {channel} = context.route;
	let response: UpstreamResponse;
	try {
		response = await callUpstream({...call, channel, timeouts: context.options.timeouts});
	} catch (error) {
		if (call.signal?.aborted) {
			context.health.released(channel);
			return undefined;
		}
		const failure = toGatewayError(error);
		context.health.failed(channel, failure.kind === 'timeout' ? 'timeout' : 'connect', failure.message);
		throw context.canFailOver ? new RetryableFailure(failure) : failure;
	}
	const status = response.statusCode;
	if (status >= 500 || status === 429) {
		context.health.failed(channel, status === 429 ? 'rate_limit' : 'server', `HTTP ${status}`);
		if (context.canFailOver) {
			const body = parseJson(await response.body.text());
			throw new RetryableFailure(mapUpstreamError(channel, adapters[channel.format].decodeError(status, body), headerValue(response.headers, 'retry-after')));
		}
	} else {
		context.health.succeeded(channel);
	}
	return response;
}
