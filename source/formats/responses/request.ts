/**
 * Responses API requests: client wire → IR. The Responses API is only spoken by clients here: a
 * request for a channel that speaks it passes through unchanged; every other channel gets it translated.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import {GatewayError, invalidRequest} from '../../base/errors.js';
import type {DecodeRequestOptions, TranslationContext} from '../adapter.js';
import type {IRRequest} from '../../base/ir.js';
import {decodeResponsesInput} from './decode-responses-input.js';
import {decodeResponsesToolChoice, decodeResponsesTools} from './decode-responses-tools.js';
import {narrowTools} from '../narrow-tools.js';
import {decodeResponsesReasoning} from './map-responses-reasoning.js';
import {decodeResponsesTextFormat} from './map-responses-text-format.js';
import {isWireObject, type WireObject} from '../wire.js';
import {requireString, optionalString, optionalNumber, optionalBoolean, optionalArray} from './schema.js';
import {responseNotFound} from './stored-responses.js';

/** Parameters with no IR slot that change the answer: dropped when translating, and said so. */
const untranslatable = ['top_logprobs', 'service_tier', 'max_tool_calls', 'frequency_penalty', 'presence_penalty'] as const;

/**
 * A response the gateway kept was put back in front of `input` before decoding (the proxy's stored
 * responses); an id still here is one it never kept (OpenAI's own, another key's, expired), which
 * only a Responses-native OpenAI channel could continue. Other state lives at OpenAI only.
 */
function refuseStoredState(body: WireObject): void {
	if (typeof body.previous_response_id === 'string' && body.previous_response_id) throw GatewayError.from(responseNotFound(body.previous_response_id, true));
	for (const key of ['conversation', 'prompt'] as const) {
		if (body[key] !== undefined && body[key] !== null) throw invalidRequest(`\`${key}\` refers to state stored at OpenAI, which this channel cannot read: send the full instructions and conversation in \`instructions\` and \`input\`.`, key);
	}
	if (body.background === true) throw invalidRequest('`background: true` needs responses stored at OpenAI, which this channel cannot do: send the request without it.', 'background');
}

/** Settings that are dropped when translating, with a warning where they change the answer. */
function warnIgnored(body: WireObject, ctx: TranslationContext): void {
	const ignored: string[] = untranslatable.filter(key => body[key] !== undefined && body[key] !== null);
	if (body.truncation === 'auto') ignored.push('truncation "auto"');
	if (isWireObject(body.text) && typeof body.text.verbosity === 'string') ignored.push('text.verbosity');
	if (ignored.length > 0) ctx.warn(`Ignored ${ignored.join(', ')}: no equivalent on the upstream format.`);
}

/** Client request → IR. Throws a 400 the client can act on when the body is not a valid Responses request. */
export function decodeResponsesRequest(body: unknown, options: DecodeRequestOptions, ctx: TranslationContext): IRRequest {
	if (!isWireObject(body)) throw invalidRequest('The request body must be a JSON object with `model` and `input`.');
	const model = typeof body.model === 'string' ? body.model : options.model ?? requireString(body.model, 'model');
	refuseStoredState(body);
	warnIgnored(body, ctx);
	const {system, messages} = decodeResponsesInput(optionalString(body.instructions, 'instructions'), body.input, ctx);
	if (messages.length === 0) throw invalidRequest('`input` must be a non-empty string or a list of input items with at least one message.', 'input');
	const {choice, onlyTools} = decodeResponsesToolChoice(body.tool_choice, ctx);
	const tools = narrowTools(decodeResponsesTools(optionalArray(body.tools, 'tools'), ctx), onlyTools, ctx);
	const maxTokens = optionalNumber(body.max_output_tokens, 'max_output_tokens');
	const parallelToolCalls = optionalBoolean(body.parallel_tool_calls, 'parallel_tool_calls');
	const temperature = optionalNumber(body.temperature, 'temperature');
	const topP = optionalNumber(body.top_p, 'top_p');
	const responseFormat = decodeResponsesTextFormat(body.text);
	const reasoning = decodeResponsesReasoning(body.reasoning, ctx);
	const user = optionalString(body.user, 'user') ?? optionalString(body.safety_identifier, 'safety_identifier');
	return {
		model,
		system,
		messages,
		tools,
		stream: optionalBoolean(body.stream, 'stream') ?? options.stream ?? false,
		...(choice ? {toolChoice: choice} : {}),
		...(parallelToolCalls === undefined ? {} : {parallelToolCalls}),
		...(maxTokens === undefined ? {} : {maxTokens}),
		...(temperature === undefined ? {} : {temperature}),
		...(topP === undefined ? {} : {topP}),
		...(responseFormat ? {responseFormat} : {}),
		...(reasoning ? {reasoning} : {}),
		...(user ? {user} : {}),
	};
}
