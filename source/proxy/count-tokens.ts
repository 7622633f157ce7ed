/**
 * count_tokens (Anthropic) and countTokens (Gemini) against a channel of another format: the
 * channel's own counting endpoint where its adapter has one, otherwise a real tokenizer (OpenAI's
 * o200k_base). Never a 404: Claude Code and Gemini CLI call these before every turn.
 */
import {GatewayError} from '../base/errors.js';
import {answered, failed, type Attempt, type AttemptResult} from './attempt.js';
import {callChannel, failedBeforeAnswer} from './call-channel.js';
import {abortOnClientClose} from './client-stream.js';
import {jsonOrText, upstreamError} from './upstream-errors.js';

export async function countTokens(attempt: Attempt): Promise<AttemptResult> {
	const {inbound, outbound, call, route, ctx} = attempt;
	if (!inbound.counting) return failed(new GatewayError('not_found', 404, `The ${inbound.format} format has no token counting endpoint.`));
	const ir = inbound.counting.decodeRequest(attempt.body, call, ctx);
	let total: number;
	if (outbound.upstreamCounting) {
		const target = {model: route.upstreamModel, stream: false, baseUrl: route.channel.baseUrl, defaultMaxTokens: attempt.services.options.defaultMaxTokens};
		const encoded = await outbound.upstreamCounting.encodeRequest(ir, target, ctx);
		const called = await callChannel(attempt, outbound, {method: 'POST', path: encoded.path, query: encoded.query, body: JSON.stringify(encoded.body), hangup: abortOnClientClose(attempt.reply)});
		if (!called.ok) return called.result;
		let text: string;
		try {
			text = await called.response.body.text();
		} catch (error) {
			return failedBeforeAnswer(attempt, error);
		}
		if (called.response.statusCode >= 400) return failed(upstreamError(route, outbound, called.response.statusCode, text, called.response.headers), false, called.fault);
		total = outbound.upstreamCounting.decodeResponse(jsonOrText(text));
	} else {
		total = attempt.services.tokenizer.count(ir);
	}
	const firstByteAt = performance.now();
	await attempt.reply.code(200).type('application/json').send(inbound.counting.encodeResponse(total));
	return answered(null, null, firstByteAt);
}
