/**
 * Messages request: client wire → IR, and IR → the upstream wire request.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type {DecodeRequestOptions, EncodedRequest, TranslationContext, UpstreamTarget} from '../adapter.js';
import type {IRReasoningConfig, IRRequest} from '../../base/ir.js';
import {invalidRequest} from '../../base/errors.js';
import {decodeAnthropicMessages, decodeAnthropicSystem} from './decode-anthropic-messages.js';
import {encodeAnthropicMessages} from './encode-anthropic-messages.js';
import {encodeAnthropicCacheControl} from './map-anthropic-cache-control.js';
import {decodeAnthropicOutputFormat, encodeAnthropicOutputFormat} from './map-anthropic-output-format.js';
import {decodeAnthropicThinking, encodeAnthropicThinking, samplingForThinking} from './map-anthropic-thinking.js';
import {decodeAnthropicToolChoice, decodeAnthropicTools, encodeAnthropicToolChoice, encodeAnthropicTools} from './map-anthropic-tools.js';
import {definedOnly, isWireObject, toJsonObject} from '../wire.js';
import {type AnthropicMessage, type AnthropicRequestBody, optionalBoolean, optionalNumber, optionalString, optionalStringArray} from './schema.js';

export function decodeAnthropicRequest(body: unknown, options: DecodeRequestOptions, ctx: TranslationContext): IRRequest {
	if (!isWireObject(body)) throw invalidRequest('The request body must be a JSON object with "model", "max_tokens" and "messages".');
	const model = optionalString(body.model, 'model') ?? options.model;
	if (!model) throw invalidRequest('model: Field required.', 'model');
	const {system: inlineSystem, messages} = decodeAnthropicMessages(body.messages, ctx);
	return definedOnly({
		model,
		system: [...decodeAnthropicSystem(body.system, 'system', ctx), ...inlineSystem],
		messages,
		tools: decodeAnthropicTools(body.tools, ctx),
		...decodeAnthropicToolChoice(body.tool_choice),
		maxTokens: optionalNumber(body.max_tokens, 'max_tokens', {integer: true, min: 0}),
		temperature: optionalNumber(body.temperature, 'temperature', {min: 0, max: 1}),
		topP: optionalNumber(body.top_p, 'top_p', {min: 0, max: 1}),
		topK: optionalNumber(body.top_k, 'top_k', {integer: true, min: 0}),
		stop: optionalStringArray(body.stop_sequences, 'stop_sequences'),
		responseFormat: decodeAnthropicOutputFormat(body.output_config, body.output_format),
		reasoning: decodeAnthropicThinking(body.thinking, body.output_config),
		stream: optionalBoolean(body.stream, 'stream') ?? options.stream ?? false,
		user: decodeUser(body.metadata),
	});
}

function decodeUser(metadata: unknown): string | undefined {
	return isWireObject(metadata) ? optionalString(metadata.user_id, 'metadata.user_id') : undefined;
}

export async function encodeAnthropicRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): Promise<EncodedRequest> {
	return {path: '/v1/messages', body: toJsonObject(buildAnthropicBody(request, target, ctx))};
}

/** Only documented parameters: the API answers unknown ones with 400 "Extra inputs are not permitted". */
export function buildAnthropicBody(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): AnthropicRequestBody {
	const messages = encodeAnthropicMessages(request.messages, ctx);
	const {thinking, maxTokens} = encodeAnthropicThinking(usableReasoning(request, messages, ctx), request.maxTokens ?? target.defaultMaxTokens);
	const sampling =
		thinking?.type === 'enabled'
			? samplingForThinking(request, ctx)
			: {temperature: clampTemperature(request.temperature, ctx), topP: request.topP, topK: request.topK};
	const {outputConfig, instruction} = encodeAnthropicOutputFormat(request.responseFormat, ctx);
	const system = [...request.system, ...(instruction ? [instruction] : [])]
		.filter(block => block.text !== '')
		.map(block => ({type: 'text' as const, text: block.text, cache_control: encodeAnthropicCacheControl(block.cache)}));
	return {
		model: target.model,
		max_tokens: maxTokens,
		messages,
		system: system.length > 0 ? system : undefined,
		metadata: request.user ? {user_id: request.user} : undefined,
		stop_sequences: stopSequences(request.stop, ctx),
		stream: target.stream,
		temperature: sampling.temperature,
		top_p: sampling.topP,
		top_k: sampling.topK,
		tools: request.tools.length > 0 ? encodeAnthropicTools(request.tools) : undefined,
		tool_choice: encodeAnthropicToolChoice(request.toolChoice, request.parallelToolCalls, request.tools.length > 0, ctx),
		thinking,
		output_config: outputConfig,
	};
}

/**
 * Thinking is refused with a forced tool (`any` / `tool`), and when the assistant turn of the current
 * tool loop does not start with a thinking block (its reasoning was lost in another format). The
 * error message itself says: "To avoid this requirement, disable `thinking`".
 */
function usableReasoning(request: IRRequest, messages: readonly AnthropicMessage[], ctx: TranslationContext): IRReasoningConfig | undefined {
	const reasoning = request.reasoning;
	if (!reasoning?.enabled) return reasoning;
	const forced = request.toolChoice?.type === 'required' || request.toolChoice?.type === 'tool';
	if (forced) {
		ctx.warn('Thinking was turned off: Anthropic does not allow it together with a forced tool choice.');
		return undefined;
	}
	const lastAssistant = messages.findLast(message => message.role === 'assistant');
	const first = lastAssistant?.content[0];
	if (lastAssistant?.content.some(block => block.type === 'tool_use') && first?.type !== 'thinking' && first?.type !== 'redacted_thinking') {
		ctx.warn('Thinking was turned off: the last assistant tool call has no Anthropic thinking block, which Anthropic requires with thinking on.');
		return undefined;
	}
	return reasoning;
}

/** OpenAI accepts temperature up to 2, Anthropic up to 1. */
function clampTemperature(temperature: number | undefined, ctx: TranslationContext): number | undefined {
	if (temperature === undefined || temperature <= 1) return temperature;
	ctx.warn(`temperature ${temperature} is above Anthropic's maximum of 1: sent as 1.`);
	return 1;
}

function stopSequences(stop: readonly string[] | undefined, ctx: TranslationContext): string[] | undefined {
	if (!stop || stop.length === 0) return undefined;
	const kept = stop.filter(sequence => sequence.trim() !== '');
	if (kept.length < stop.length) ctx.warn('Whitespace-only stop sequences were dropped: Anthropic rejects them.');
	return kept.length > 0 ? kept : undefined;
}
