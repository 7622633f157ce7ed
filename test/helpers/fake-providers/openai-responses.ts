/**
 * Strict fake of the OpenAI Responses API (`POST /v1/responses`, JSON and SSE), served by the fake
 * OpenAI provider for channels with the Responses API on. Like the real API it rejects unknown
 * parameters and a `previous_response_id` it did not store; streams are `event:` + `data:` frames
 * with `sequence_number`s, no `[DONE]`.
 */
import {
	FrameWriter,
	isRecord,
	randomId,
	replyChunks,
	replyFinish,
	replyText,
	replyUsage,
	sendJson,
	splitText,
	startStream,
	type Ctx,
	type FakeReply,
} from './common.js';
import type {OpenAIError} from './openai-validate.js';

const KNOWN = new Set([
	'model', 'input', 'instructions', 'stream', 'stream_options', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens',
	'max_tool_calls', 'temperature', 'top_p', 'top_logprobs', 'reasoning', 'text', 'store', 'include', 'previous_response_id',
	'conversation', 'prompt', 'prompt_cache_key', 'prompt_cache_retention', 'metadata', 'user', 'safety_identifier', 'service_tier',
	'truncation', 'background', 'client_metadata',
]);

const stored = new Set<string>();

const bad = (message: string, param: string | null, code: string | null): OpenAIError => ({status: 400, message, type: 'invalid_request_error', param, code});

export function validateResponsesBody(body: unknown): OpenAIError | undefined {
	if (!isRecord(body)) return bad('The request body must be a JSON object.', null, null);
	for (const key of Object.keys(body)) if (!KNOWN.has(key)) return bad(`Unknown parameter: '${key}'.`, key, 'unknown_parameter');
	if (typeof body.model !== 'string') return bad("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
	const previous = body.previous_response_id;
	if (previous !== undefined && previous !== null && (typeof previous !== 'string' || !stored.has(previous))) {
		return bad(`Previous response with id '${String(previous)}' not found.`, 'previous_response_id', 'previous_response_not_found');
	}
	if (body.input === undefined && previous === undefined) return bad("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
	if (body.input !== undefined && typeof body.input !== 'string' && !Array.isArray(body.input)) {
		return bad("Invalid type for 'input': expected one of a string or array of input items.", 'input', 'invalid_type');
	}
	return undefined;
}

type Item = Record<string, unknown>;

function outputItems(reply: FakeReply, encrypted: boolean): Item[] {
	const items: Item[] = [];
	if (reply.thinking) {
		items.push({id: `rs_${randomId(40)}`, type: 'reasoning', summary: [{type: 'summary_text', text: reply.thinking.text}], ...(encrypted ? {encrypted_content: `gAAAA${randomId(60)}`} : {})});
	}
	const text = replyText(reply, 'openai');
	if (text) items.push({id: `msg_${randomId(40)}`, type: 'message', status: 'completed', content: [{type: 'output_text', annotations: [], logprobs: [], text}], role: 'assistant'});
	for (const call of reply.toolCalls ?? []) {
		items.push({id: `fc_${randomId(40)}`, type: 'function_call', status: 'completed', arguments: JSON.stringify(call.args), call_id: call.id ?? `call_${randomId(24)}`, name: call.name});
	}
	return items;
}

function responseObject(id: string, body: Record<string, unknown>, status: string, output: Item[], reply: FakeReply | undefined): Item {
	const usage = reply && replyUsage(reply);
	return {
		id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, background: false, error: null,
		incomplete_details: status === 'incomplete' ? {reason: 'max_output_tokens'} : null, instructions: body.instructions ?? null,
		max_output_tokens: body.max_output_tokens ?? null, model: body.model, output, parallel_tool_calls: body.parallel_tool_calls ?? true,
		previous_response_id: body.previous_response_id ?? null, reasoning: {effort: null, summary: null}, store: body.store !== false,
		temperature: body.temperature ?? 1, text: {format: {type: 'text'}, verbosity: 'medium'}, tool_choice: body.tool_choice ?? 'auto',
		tools: body.tools ?? [], top_p: body.top_p ?? 1, truncation: 'disabled', metadata: {},
		usage: usage ? {input_tokens: usage.input, input_tokens_details: {cached_tokens: usage.cached}, output_tokens: usage.output, output_tokens_details: {reasoning_tokens: usage.reasoning}, total_tokens: usage.input + usage.output} : null,
	};
}

/** The streamed events of one item: added, deltas (text, summary or arguments), done. */
function itemEvents(item: Item, index: number, pieces: number): Item[] {
	const at = {item_id: item.id, output_index: index};
	const events: Item[] = [];
	if (item.type === 'message') {
		const text = ((item.content as Item[])[0]!.text as string);
		const part = {type: 'output_text', annotations: [], logprobs: [], text: ''};
		events.push({type: 'response.output_item.added', output_index: index, item: {...item, status: 'in_progress', content: []}}, {type: 'response.content_part.added', ...at, content_index: 0, part});
		for (const delta of splitText(text, pieces)) events.push({type: 'response.output_text.delta', ...at, content_index: 0, delta, logprobs: []});
		events.push({type: 'response.output_text.done', ...at, content_index: 0, text, logprobs: []}, {type: 'response.content_part.done', ...at, content_index: 0, part: {...part, text}});
	} else if (item.type === 'reasoning') {
		const text = ((item.summary as Item[])[0]!.text as string);
		events.push({type: 'response.output_item.added', output_index: index, item: {...item, summary: []}}, {type: 'response.reasoning_summary_part.added', ...at, summary_index: 0, part: {type: 'summary_text', text: ''}});
		for (const delta of splitText(text, pieces)) events.push({type: 'response.reasoning_summary_text.delta', ...at, summary_index: 0, delta});
		events.push({type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text}, {type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: {type: 'summary_text', text}});
	} else {
		events.push({type: 'response.output_item.added', output_index: index, item: {...item, status: 'in_progress', arguments: ''}});
		for (const delta of splitText(item.arguments as string, Math.max(2, pieces))) events.push({type: 'response.function_call_arguments.delta', ...at, delta});
		events.push({type: 'response.function_call_arguments.done', ...at, arguments: item.arguments});
	}
	events.push({type: 'response.output_item.done', output_index: index, item});
	return events;
}

export async function answerResponses(ctx: Ctx, body: Record<string, unknown>, reply: FakeReply): Promise<void> {
	const id = `resp_${randomId(48, '0123456789abcdef')}`;
	if (body.store !== false) stored.add(id);
	const include = Array.isArray(body.include) ? body.include : [];
	const output = outputItems(reply, include.includes('reasoning.encrypted_content'));
	const status = replyFinish(reply) === 'length' ? 'incomplete' : 'completed';
	if (body.stream !== true) return sendJson(ctx.res, 200, responseObject(id, body, status, output, reply), {'x-request-id': `req_${randomId(32, '0123456789abcdef')}`});
	startStream(ctx.res, 'text/event-stream; charset=utf-8');
	const mid = reply.midStreamError;
	const writer = new FrameWriter(ctx.res, reply.chunkDelayMs ?? 0, mid?.afterChunks, () => {
		const error = {type: 'server_error', code: 'server_error', message: mid?.message ?? 'The server had an error while processing your request. Sorry about that!', param: null};
		ctx.res.write(`event: error\ndata: ${JSON.stringify({type: 'error', sequence_number: 0, error})}\n\n`);
		ctx.res.end();
	});
	const events: Item[] = [
		{type: 'response.created', response: responseObject(id, body, 'in_progress', [], undefined)},
		{type: 'response.in_progress', response: responseObject(id, body, 'in_progress', [], undefined)},
		...output.flatMap((item, index) => itemEvents(item, index, replyChunks(reply))),
		{type: status === 'completed' ? 'response.completed' : 'response.incomplete', response: responseObject(id, body, status, output, reply)},
	];
	for (const [sequence, event] of events.entries()) {
		if (!(await writer.write(`event: ${String(event.type)}\ndata: ${JSON.stringify({...event, sequence_number: sequence})}\n\n`))) return;
	}
	writer.end();
}
