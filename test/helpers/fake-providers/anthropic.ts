/**
 * Strict fake of the Anthropic Messages API (base URL `http://127.0.0.1:PORT`, paths `/v1/...`):
 * `POST /v1/messages` (JSON and SSE), `POST /v1/messages/count_tokens`, `GET /v1/models` (paged: `limit`
 * 1–1000, default 20; `lifecycle` and `retires_at` per model), `GET /v1/models/{id}`.
 */
import {
	applyTransport,
	defaultKey,
	FrameWriter,
	isRecord,
	randomId,
	replyChunks,
	replyFinish,
	replyText,
	replyUsage,
	sendJson,
	splitText,
	startFakeServer,
	startStream,
	type Ctx,
	type FakeOptions,
	type FakeProvider,
	type FakeReply,
} from './common.js';
import {ANTHROPIC_VERSIONS, validateAnthropicBody, type AnthropicError} from './anthropic-validate.js';

export const ANTHROPIC_DEFAULT_MODELS = ['claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-opus-4-1'];
const STOP_REASONS = {stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', content_filter: 'refusal'} as const;
const ERROR_TYPES: Record<number, [string, string]> = {
	400: ['invalid_request_error', 'Invalid request'],
	401: ['authentication_error', 'invalid x-api-key'],
	402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
	403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
	404: ['not_found_error', 'Not found'],
	413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
	429: ['rate_limit_error', 'Number of requests has exceeded your rate limit. Please try again later.'],
	500: ['api_error', 'Internal server error'],
	504: ['timeout_error', 'Request timeout'],
	529: ['overloaded_error', 'Overloaded'],
};

export function startFakeAnthropic(opts: FakeOptions = {}): Promise<FakeProvider> {
	const apiKey = opts.apiKey ?? defaultKey('sk-ant-real-');
	const models = opts.models ?? [...ANTHROPIC_DEFAULT_MODELS];
	const deprecated = opts.deprecated ?? {};
	return startFakeServer('anthropic', apiKey, models, '', ctx => handle(ctx, deprecated));
}

export function anthropicScriptedError(status: number, message?: string): AnthropicError {
	const [type, fallback] = ERROR_TYPES[status] ?? (status >= 500 ? ['api_error', 'Internal server error'] : ['invalid_request_error', 'Invalid request']);
	return {status, type, message: message ?? fallback};
}

function requestId(): string {
	return `req_011C${randomId(20)}`;
}

function sendError(ctx: Ctx, error: AnthropicError, headers: Record<string, string> = {}): void {
	const id = requestId();
	sendJson(ctx.res, error.status, {type: 'error', error: {type: error.type, message: error.message}, request_id: id}, {'request-id': id, ...headers});
}

function preflight(ctx: Ctx): AnthropicError | undefined {
	const headers = ctx.rec.headers;
	const bearer = headers.authorization === undefined ? undefined : /^Bearer\s+(.*)$/i.exec(headers.authorization)?.[1]?.trim();
	const key = headers['x-api-key'] ?? bearer;
	if (key === undefined || key === '') return {status: 401, type: 'authentication_error', message: 'x-api-key header is required'};
	if (key !== ctx.apiKey) return {status: 401, type: 'authentication_error', message: 'invalid x-api-key'};
	const version = headers['anthropic-version'];
	if (version === undefined) return {status: 400, type: 'invalid_request_error', message: 'anthropic-version: header is required'};
	if (!ANTHROPIC_VERSIONS.includes(version)) return {status: 400, type: 'invalid_request_error', message: `anthropic-version: "${version}" is not a valid version`};
	return undefined;
}

function displayName(id: string): string {
	return id
		.replace(/-\d{8}$/, '')
		.split('-')
		.map((part, i, parts) => (/^\d+$/.test(part) && /^\d+$/.test(parts[i - 1] ?? '') ? `.${part}` : ` ${part.charAt(0).toUpperCase()}${part.slice(1)}`))
		.join('')
		.trim();
}

function modelObject(id: string, deprecated: Readonly<Record<string, string | null>> = {}): Record<string, unknown> {
	const retiring = Object.hasOwn(deprecated, id);
	return {
		type: 'model',
		id,
		display_name: displayName(id),
		created_at: '2025-09-29T00:00:00Z',
		lifecycle: retiring ? 'deprecated' : 'active',
		deprecated_at: retiring ? '2026-08-01T00:00:00Z' : null,
		retires_at: retiring ? deprecated[id] : null,
	};
}

/** GET /v1/models: `limit` 1–1000 (default 20), `after_id` / `before_id` cursors; active and deprecated models. */
function listModels(ctx: Ctx, deprecated: Readonly<Record<string, string | null>>): AnthropicError | undefined {
	const {limit: limitText = '20', after_id: after, before_id: before} = ctx.rec.query;
	const limit = Number(limitText);
	if (!/^\d+$/.test(limitText) || limit < 1) return {status: 400, type: 'invalid_request_error', message: 'limit: Input should be greater than or equal to 1'};
	if (limit > 1000) return {status: 400, type: 'invalid_request_error', message: 'limit: Input should be less than or equal to 1000'};
	let start = 0;
	let end = ctx.models.length;
	if (after !== undefined) start = ctx.models.indexOf(after) + 1;
	if (before !== undefined) end = Math.max(0, ctx.models.indexOf(before));
	const page = before !== undefined && after === undefined ? ctx.models.slice(Math.max(start, end - limit), end) : ctx.models.slice(start, Math.min(end, start + limit));
	const first = page.length > 0 ? ctx.models.indexOf(page[0]!) : start;
	const hasMore = before !== undefined && after === undefined ? first > 0 : first + page.length < end;
	sendJson(ctx.res, 200, {data: page.map(id => modelObject(id, deprecated)), has_more: hasMore, first_id: page[0] ?? null, last_id: page.at(-1) ?? null}, {'request-id': requestId()});
	return undefined;
}

async function handle(ctx: Ctx, deprecated: Readonly<Record<string, string | null>>): Promise<void> {
	const method = ctx.req.method ?? 'GET';
	const path = ctx.url.pathname;
	const route =
		method === 'POST' && path === '/v1/messages' ? 'messages'
		: method === 'POST' && path === '/v1/messages/count_tokens' ? 'count'
		: method === 'GET' && path === '/v1/models' ? 'models'
		: method === 'GET' && path.startsWith('/v1/models/') ? 'model'
		: undefined;
	if (!route) return sendError(ctx, {status: 404, type: 'not_found_error', message: 'Not Found'});
	const pre = preflight(ctx);
	if (pre) return sendError(ctx, pre);
	if (route === 'models') {
		const invalid = listModels(ctx, deprecated);
		if (invalid) sendError(ctx, invalid);
		return;
	}
	if (route === 'model') {
		const id = decodeURIComponent(path.slice('/v1/models/'.length));
		if (ctx.models.includes(id)) sendJson(ctx.res, 200, modelObject(id, deprecated), {'request-id': requestId()});
		else sendError(ctx, {status: 404, type: 'not_found_error', message: `model: ${id}`});
		return;
	}
	if (ctx.body && !ctx.body.ok) return sendError(ctx, {status: 400, type: 'invalid_request_error', message: 'There was an error parsing the body of your request. Please check that you are sending valid JSON.'});
	const body: unknown = ctx.body?.value ?? {};
	const version = ctx.rec.headers['anthropic-version'] ?? '';
	const invalid = validateAnthropicBody(body, {countTokens: route === 'count', version, betas: ctx.rec.headers['anthropic-beta'] ?? ''});
	if (invalid) return sendError(ctx, invalid);
	if (!isRecord(body) || typeof body.model !== 'string') return;
	const model = body.model;
	if (!ctx.models.includes(model)) return sendError(ctx, {status: 404, type: 'not_found_error', message: `model: ${model}`});
	if (route === 'count') {
		const inputTokens = Math.ceil(JSON.stringify({messages: body.messages, system: body.system, tools: body.tools}).length / 4);
		sendJson(ctx.res, 200, {input_tokens: inputTokens}, {'request-id': requestId()});
		return;
	}
	const reply = ctx.nextReply();
	if (!(await applyTransport(ctx, reply))) return;
	if (reply.error) {
		const headers: Record<string, string> = reply.error.retryAfter === undefined ? {} : {'retry-after': reply.error.retryAfter};
		return sendError(ctx, anthropicScriptedError(reply.error.status, reply.error.message), headers);
	}
	if (body.stream === true) await streamMessage(ctx, reply, model);
	else sendJson(ctx.res, 200, message(reply, model), {'request-id': requestId()});
}

type Block =
	| {type: 'thinking'; thinking: string; signature: string}
	| {type: 'text'; text: string}
	| {type: 'tool_use'; id: string; name: string; input: Record<string, unknown>};

function blocks(reply: FakeReply): Block[] {
	const out: Block[] = [];
	if (reply.thinking) out.push({type: 'thinking', thinking: reply.thinking.text, signature: reply.thinking.signature ?? `Eq${randomId(86)}==`});
	const text = replyText(reply, 'anthropic');
	if (text !== '') out.push({type: 'text', text});
	for (const call of reply.toolCalls ?? []) out.push({type: 'tool_use', id: call.id ?? `toolu_01${randomId(22)}`, name: call.name, input: call.args});
	return out;
}

function usage(reply: FakeReply, outputTokens?: number): Record<string, unknown> {
	const u = replyUsage(reply);
	return {
		input_tokens: Math.max(0, u.input - u.cached),
		cache_creation_input_tokens: 0,
		cache_read_input_tokens: u.cached,
		cache_creation: {ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0},
		output_tokens: outputTokens ?? u.output,
		service_tier: 'standard',
	};
}

function message(reply: FakeReply, model: string): Record<string, unknown> {
	return {
		id: `msg_01${randomId(22)}`,
		type: 'message',
		role: 'assistant',
		model,
		content: blocks(reply),
		stop_reason: STOP_REASONS[replyFinish(reply)],
		stop_sequence: null,
		usage: usage(reply),
	};
}

async function streamMessage(ctx: Ctx, reply: FakeReply, model: string): Promise<void> {
	const {res} = ctx;
	startStream(res, 'text/event-stream; charset=utf-8', {'request-id': requestId()});
	const mid = reply.midStreamError;
	const writer = new FrameWriter(res, reply.chunkDelayMs ?? 0, mid?.afterChunks, () => {
		const data = {type: 'error', error: {type: 'overloaded_error', message: mid?.message ?? 'Overloaded'}};
		res.write(`event: error\ndata: ${JSON.stringify(data)}\n\n`);
		res.end();
	});
	const events: Array<Record<string, unknown> & {type: string}> = [];
	const full = message(reply, model);
	const u = replyUsage(reply);
	events.push({type: 'message_start', message: {...full, content: [], stop_reason: null, stop_sequence: null, usage: usage(reply, Math.min(1, u.output))}});
	events.push({type: 'ping'});
	const n = replyChunks(reply);
	for (const [index, block] of blocks(reply).entries()) {
		if (block.type === 'thinking') {
			events.push({type: 'content_block_start', index, content_block: {type: 'thinking', thinking: '', signature: ''}});
			for (const piece of splitText(block.thinking, n)) events.push({type: 'content_block_delta', index, delta: {type: 'thinking_delta', thinking: piece}});
			events.push({type: 'content_block_delta', index, delta: {type: 'signature_delta', signature: block.signature}});
		} else if (block.type === 'text') {
			events.push({type: 'content_block_start', index, content_block: {type: 'text', text: ''}});
			for (const piece of splitText(block.text, n)) events.push({type: 'content_block_delta', index, delta: {type: 'text_delta', text: piece}});
		} else {
			events.push({type: 'content_block_start', index, content_block: {type: 'tool_use', id: block.id, name: block.name, input: {}}});
			// A call without arguments streams one empty `partial_json`, never "{}" (as Claude does for `get_time()`).
			const json = Object.keys(block.input).length === 0 ? '' : JSON.stringify(block.input);
			for (const piece of json === '' ? [''] : splitText(json, Math.max(2, n))) {
				events.push({type: 'content_block_delta', index, delta: {type: 'input_json_delta', partial_json: piece}});
			}
		}
		events.push({type: 'content_block_stop', index});
	}
	const {service_tier: _tier, cache_creation: _cache, ...deltaUsage} = usage(reply);
	events.push({type: 'message_delta', delta: {stop_reason: full.stop_reason, stop_sequence: null}, usage: deltaUsage});
	events.push({type: 'message_stop'});
	for (const event of events) {
		if (!(await writer.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`))) return;
	}
	writer.end();
}
