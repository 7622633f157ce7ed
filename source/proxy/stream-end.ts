/**
 * How a stream that has begun ends when something goes wrong: with the client format's own error
 * frame (scrubbed), never silently, and with the fault counted against the channel.
 */
import {GatewayError} from '../base/errors.js';
import {scrubberOf, transportFault, type Attempt, type ChannelFault} from './attempt.js';
import type {ClientStream} from './client-stream.js';

/** The frame that ends a broken stream in the client's format, with every key masked. */
export function streamErrorFrame(attempt: Attempt, error: GatewayError): string {
	const {inbound, call} = attempt;
	const sse = /event-stream/i.test(inbound.streamContentType({sse: call.sse}));
	// A JSON-array stream (Gemini without alt=sse) ends with an error element and the closing bracket.
	const text = sse ? inbound.renderStreamError(error, {sse: call.sse}) : `,${JSON.stringify(inbound.renderError(error).body)}]`;
	return scrubberOf(attempt).scrub(text);
}

export type StreamOutcome = {
	/** The connection broke or went silent (a GatewayError from upstreamFailure). */
	readonly broken: GatewayError | null;
	/** The stream's own decoder found it ended without its terminal event. */
	readonly cutOff: boolean;
	/** The provider's own error frame, already passed on. */
	readonly upstreamError: string | null;
};

/** Write the error frame a broken stream needs, end the response, and say what the log and the channel's health get. */
export async function endStream(attempt: Attempt, client: ClientStream, outcome: StreamOutcome): Promise<{error: string | null; fault: ChannelFault | null}> {
	const channel = attempt.route.channel.name;
	const error =
		outcome.broken ??
		(outcome.cutOff ? new GatewayError('upstream', 502, `Channel "${channel}" ended its stream before the answer was complete. Try again; if it keeps happening, check the provider's status.`, {code: 'upstream_stream_cut'}) : null);
	if (error) await client.write(streamErrorFrame(attempt, error));
	client.end();
	if (outcome.broken) return {error: outcome.broken.message, fault: transportFault(outcome.broken)};
	if (error) return {error: error.message, fault: {kind: 'server', reason: 'a stream that broke off'}};
	if (outcome.upstreamError) return {error: outcome.upstreamError, fault: {kind: 'server', reason: `an error mid-stream: ${outcome.upstreamError.slice(0, 200)}`}};
	return {error: null, fault: null};
}
