/**
 * OpenAI chat completions requests: client wire → IR, and IR → upstream wire.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import {createHash} from 'node:crypto';
import {invalidRequest} from '../../base/errors.js';
import type {DecodeRequestOptions, EncodedRequest, TranslationContext, UpstreamTarget} from '../adapter.js';
import type {IRRequest, JsonValue} from '../../base/ir.js';
import {decodeOpenaiMessages} from './decode-openai-messages.js';
import {decodeOpenaiResponseFormat, encodeOpenaiResponseFormat} from './map-openai-response-format.js';
import {decodeOpenaiToolChoice, decodeOpenaiTools, encodeOpenaiToolChoice, encodeOpenaiTools} from './map-openai-tools.js';
import {narrowTools} from '../narrow-tools.js';
import {encodeOpenaiMessages} from './encode-openai-messages.js';
import {decodeOpenaiReasoningEffort, encodeOpenaiReasoningEffort} from './map-openai-reasoning-effort.js';
import {isWireObject, compact, type WireObject} from '../wire.js';
import {encodeOpenaiMaxTokens, encodeOpenaiUser, honoursCacheControl, providerHost} from './map-openai-provider-limits.js';
import {requireString, optionalString, optionalNumber, optionalBoolean, optionalObject, optionalArray} from './schema.js';

/** Parameters with no IR slot: dropped when translating, and said so. */
const untranslatable = [
	'frequency_penalty',
	'presence_penalty',
	'logit_bias',
	'logprobs',
	'top_logprobs',
	'seed',
	'service_tier',
	'store',
	'metadata',
	'prediction',
	'audio',
	'modalities',
	'web_search_options',
	'verbosity',
	'prompt_cache_key',
	'prompt_cache_retention',
] as const;

function decodeStop(value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string') return [value];
	if (Array.isArray(value) && value.every(item => typeof item === 'string')) return value;
	throw invalidRequest('`stop` must be a string or an array of strings.', 'stop');
}

function checkSupported(body: WireObject): void {
	const n = optionalNumber(body.n, 'n');
	if (n !== undefined && n !== 1) throw invalidRequest('`n` must be 1: the gateway can only translate a single choice for this model.', 'n');
	if (body.functions !== undefined || body.function_call !== undefined) {
		throw invalidRequest('`functions` and `function_call` are deprecated and cannot be translated; send `tools` and `tool_choice` instead.', 'functions');
	}
}

/** Client request → IR. Throws a 400 the client can act on when the body is not a valid chat completions request. */
export function decodeOpenaiRequest(body: unknown, options: DecodeRequestOptions, ctx: TranslationContext): IRRequest {
	if (!isWireObject(body)) throw invalidRequest('The request body must be a JSON object with `model` and `messages`.');
	const model = typeof body.model === 'string' ? body.model : options.model ?? requireString(body.model, 'model');
	const messages = optionalArray(body.messages, 'messages');
	if (!messages || messages.length === 0) throw invalidRequest('`messages` must be a non-empty array of messages.', 'messages');
	checkSupported(body);
	const ignored = untranslatable.filter(key => body[key] !== undefined && body[key] !== null);
	if (ignored.length > 0) ctx.warn(`Ignored ${ignored.join(', ')}: no equivalent on the upstream format.`);
	const {system, messages: irMessages} = decodeOpenaiMessages(messages, ctx);
	const {choice, onlyTools} = decodeOpenaiToolChoice(body.tool_choice);
	const tools = narrowTools(decodeOpenaiTools(optionalArray(body.tools, 'tools')), onlyTools, ctx);
	const stream = optionalBoolean(body.stream, 'stream') ?? options.stream ?? false;
	const streamOptions = optionalObject(body.stream_options, 'stream_options');
	const includeUsage = streamOptions && optionalBoolean(streamOptions.include_usage, 'stream_options.include_usage');
	const maxTokens = optionalNumber(body.max_completion_tokens, 'max_completion_tokens') ?? optionalNumber(body.max_tokens, 'max_tokens');
	const parallelToolCalls = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
	const temperature = optionalNumber(body.temperature, 'temperature');
	const topP = optionalNumber(body.top_p, 'top_p');
	const stop = decodeStop(body.stop);
	const responseFormat = decodeOpenaiResponseFormat(body.response_format);
	const reasoning = decodeOpenaiReasoningEffort(body.reasoning_effort, ctx);
	const user = optionalString(body.user, 'user') ?? optionalString(body.safety_identifier, 'safety_identifier');
	// Field by field, not ten conditional spreads (each a runtime call): every request an OpenAI client sends to another format is decoded here.
	const request: {-readonly [K in keyof IRRequest]: IRRequest[K]} = {model, system, messages: irMessages, tools, stream};
	if (choice) request.toolChoice = choice;
	if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
	if (maxTokens !== undefined) request.maxTokens = maxTokens;
	if (temperature !== undefined) request.temperature = temperature;
	if (topP !== undefined) request.topP = topP;
	if (stop) request.stop = stop;
	if (responseFormat) request.responseFormat = responseFormat;
	if (reasoning) request.reasoning = reasoning;
	if (stream && includeUsage) request.includeUsage = true;
	if (user) request.user = user;
	return request;
}

/**
 * OpenAI itself (and Azure OpenAI) as opposed to an OpenAI-compatible server: reasoning models
 * there reject `max_tokens`, and the API rejects fields it does not know (`reasoning_content`).
 */
export function isOfficialOpenai(host: string): boolean {
	return host === 'api.openai.com' || host.endsWith('.openai.azure.com');
}

const hash = (value: string, length: number): string => createHash('sha256').update(value).digest('base64url').slice(0, length);

/** OpenAI caps tool-call ids at 40 characters; longer ones (other gateways, Gemini) get a stable short form. */
const shortToolCallId = (id: string): string => (id.length <= 40 ? id : `call_${hash(id, 32)}`);

function encodeStop(stop: readonly string[] | undefined, ctx: TranslationContext): string[] | undefined {
	if (!stop || stop.length === 0) return undefined;
	// "Up to 4 sequences": the API rejects more.
	if (stop.length > 4) ctx.warn(`Sent only the first 4 of ${stop.length} stop sequences: OpenAI accepts at most 4.`);
	return stop.slice(0, 4);
}

function encodeToolFields(request: IRRequest, ctx: TranslationContext): {[key: string]: JsonValue | undefined} {
	if (request.tools.length === 0) {
		// The API rejects tool_choice and parallel_tool_calls without tools.
		if (request.toolChoice && request.toolChoice.type !== 'none' && request.toolChoice.type !== 'auto') {
			ctx.warn(`Dropped tool_choice "${request.toolChoice.type}": the request has no tools.`);
		}
		return {};
	}
	return {
		tools: encodeOpenaiTools(request.tools),
		tool_choice: request.toolChoice ? encodeOpenaiToolChoice(request.toolChoice) : undefined,
		parallel_tool_calls: request.parallelToolCalls,
	};
}

/** IR → the upstream request for an OpenAI-format channel (its base URL ends in /v1). */
export async function encodeOpenaiRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): Promise<EncodedRequest> {
	const host = providerHost(target.baseUrl);
	const official = isOfficialOpenai(host);
	const messageOptions = {reasoningContent: !official, toolCallId: official ? shortToolCallId : (id: string) => id, cacheMarkers: honoursCacheControl(host)};
	const messages = encodeOpenaiMessages(request.system, request.messages, messageOptions, ctx);
	if (request.topK !== undefined) ctx.warn('Dropped top_k: OpenAI chat completions has no top_k.');
	const responseFormat = request.responseFormat && request.responseFormat.type !== 'text' ? encodeOpenaiResponseFormat(request.responseFormat) : undefined;
	const body = compact({
		model: target.model,
		messages,
		...encodeToolFields(request, ctx),
		// api.openai.com reasoning models reject max_tokens; Mistral, DeepSeek and older servers reject max_completion_tokens.
		[official ? 'max_completion_tokens' : 'max_tokens']: encodeOpenaiMaxTokens(request.maxTokens, target, host, ctx),
		temperature: request.temperature,
		top_p: request.topP,
		stop: encodeStop(request.stop, ctx),
		response_format: responseFormat,
		reasoning_effort: encodeOpenaiReasoningEffort(request.reasoning),
		user: encodeOpenaiUser(request.user, host),
		// stream_options is only allowed with stream: true; the gateway always wants the usage chunk.
		stream: target.stream ? true : undefined,
		stream_options: target.stream ? {include_usage: true} : undefined,
	});
	return {path: '/chat/completions', body};
}
