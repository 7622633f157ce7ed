/**
 * Strict fake of the OpenAI Chat Completions API (base URL `http://127.0.0.1:PORT/v1`):
 * `POST /v1/chat/completions` (JSON and SSE), `GET /v1/models`, `GET /v1/models/{id}`, and the
 * Responses API `POST /v1/responses` (see openai-responses.ts).
 */
import {
	applyTransport,
	defaultKey,
	FrameWriter,
	maskKey,
	randomId,
	replyChunks,
	replyFinish,
	replyText,
	replyUsage,
	splitText,
	sendJson,
	startFakeServer,
	startStream,
	isRecord,
	type Ctx,
	type FakeOptions,
	type FakeProvider,
	type FakeReply,
} from './common.js';
import {validateChatBody, type OpenAIError} from './openai-validate.js';
import {answerResponses, validateResponsesBody} from './openai-responses.js';

export const OPENAI_DEFAULT_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1', 'o4-mini'];
const MODEL_CREATED = 1_715_367_049;

export function startFakeOpenAI(opts: FakeOptions = {}): Promise<FakeProvider> {
	const apiKey = opts.apiKey ?? defaultKey('sk-real-openai-');
	const models = opts.models ?? [...OPENAI_DEFAULT_MODELS];
	const aliases = opts.aliases ?? {};
	return startFakeServer('openai', apiKey, models, '/v1', ctx => handle(ctx, aliases));
}

function sendError(ctx: Ctx, error: OpenAIError, extraHeaders: Record<string, string> = {}): void {
	const {status, ...rest} = error;
	sendJson(ctx.res, status, {error: rest}, {'x-request-id': `req_${randomId(32, '0123456789abcdef')}`, ...extraHeaders});
}

function modelNotFound(model: string): OpenAIError {
	return {status: 404, message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found'};
}

function authError(ctx: Ctx): OpenAIError | undefined {
	const header = ctx.rec.headers.authorization;
	const match = header === undefined ? undefined : /^Bearer\s+(.*)$/i.exec(header);
	if (!match || match[1].trim() === '') {
		return {
			status: 401,
			message:
				"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
			type: 'invalid_request_error',
			param: null,
			code: null,
		};
	}
	const key = match[1].trim();
	if (key === ctx.apiKey) return undefined;
	return incorrectKey(key);
}

function incorrectKey(key: string): OpenAIError {
	return {
		status: 401,
		message: `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
		type: 'invalid_request_error',
		param: null,
		code: 'invalid_api_key',
	};
}

export function openaiScriptedError(status: number, message: string | undefined, model: string, apiKey: string): OpenAIError {
	const base = (msg: string, type: string, code: string | null): OpenAIError => ({status, message: message ?? msg, type, param: null, code});
	switch (status) {
		case 401:
			return {...incorrectKey(apiKey), message: message ?? incorrectKey(apiKey).message};
		case 403:
			return base('Country, region, or territory not supported', 'request_forbidden', 'unsupported_country_region_territory');
		case 404:
			return {...modelNotFound(model), message: message ?? modelNotFound(model).message};
		case 429:
			return base(
				`Rate limit reached for ${model} in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
				'requests',
				'rate_limit_exceeded',
			);
		case 503:
			return base('The engine is currently overloaded, please try again later.', 'server_error', null);
		default:
			return status >= 500
				? base('The server had an error while processing your request. Sorry about that!', 'server_error', null)
				: base('Invalid request.', 'invalid_request_error', null);
	}
}

async function handle(ctx: Ctx, aliases: Readonly<Record<string, string>>): Promise<void> {
	const method = ctx.req.method ?? 'GET';
	const path = ctx.url.pathname;
	const route =
		method === 'POST' && path === '/v1/chat/completions' ? 'chat'
		: method === 'POST' && path === '/v1/responses' ? 'responses'
		: method === 'GET' && path === '/v1/models' ? 'models'
		: method === 'GET' && path.startsWith('/v1/models/') ? 'model'
		: undefined;
	if (!route) {
		sendError(ctx, {status: 404, message: `Invalid URL (${method} ${path})`, type: 'invalid_request_error', param: null, code: null});
		return;
	}
	const auth = authError(ctx);
	if (auth) return sendError(ctx, auth);
	if (route === 'models') {
		sendJson(ctx.res, 200, {object: 'list', data: ctx.models.map(modelObject)});
		return;
	}
	if (route === 'model') {
		const id = decodeURIComponent(path.slice('/v1/models/'.length));
		const target = Object.hasOwn(aliases, id) ? aliases[id]! : id;
		if (ctx.models.includes(target)) sendJson(ctx.res, 200, modelObject(target));
		else sendError(ctx, modelNotFound(id));
		return;
	}
	if (ctx.body && !ctx.body.ok) {
		sendError(ctx, {
			status: 400,
			message:
				"We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
			type: 'invalid_request_error',
			param: null,
			code: null,
		});
		return;
	}
	const body: unknown = ctx.body?.value ?? {};
	const invalid = route === 'responses' ? validateResponsesBody(body) : validateChatBody(body);
	if (invalid) return sendError(ctx, invalid);
	if (!isRecord(body) || typeof body.model !== 'string') return;
	const model = body.model;
	if (!ctx.models.includes(Object.hasOwn(aliases, model) ? aliases[model]! : model)) return sendError(ctx, modelNotFound(model));

	const reply = ctx.nextReply();
	if (!(await applyTransport(ctx, reply))) return;
	if (reply.error) {
		const headers: Record<string, string> = reply.error.retryAfter === undefined ? {} : {'retry-after': reply.error.retryAfter};
		return sendError(ctx, openaiScriptedError(reply.error.status, reply.error.message, model, ctx.apiKey), headers);
	}
	if (route === 'responses') return answerResponses(ctx, body, reply);
	const includeUsage = isRecord(body.stream_options) && body.stream_options.include_usage === true;
	if (body.stream === true) await streamChat(ctx, reply, model, includeUsage);
	else sendJson(ctx.res, 200, completion(reply, model), {'x-request-id': `req_${randomId(32, '0123456789abcdef')}`});
}

function modelObject(id: string): Record<string, unknown> {
	return {id, object: 'model', created: MODEL_CREATED, owned_by: 'system'};
}

function usageObject(reply: FakeReply): Record<string, unknown> {
	const u = replyUsage(reply);
	return {
		prompt_tokens: u.input,
		// xAI counts reasoning outside completion_tokens (and inside total_tokens); OpenAI counts it inside.
		completion_tokens: reply.usage?.reasoningOutside ? u.output - u.reasoning : u.output,
		total_tokens: u.input + u.output,
		prompt_tokens_details: {cached_tokens: u.cached, audio_tokens: 0},
		completion_tokens_details: {reasoning_tokens: u.reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0},
	};
}

function toolCalls(reply: FakeReply): Array<{id: string; name: string; args: string}> {
	return (reply.toolCalls ?? []).map((call) => ({id: call.id ?? `call_${randomId(24)}`, name: call.name, args: JSON.stringify(call.args)}));
}

function completion(reply: FakeReply, model: string): Record<string, unknown> {
	const text = replyText(reply, 'openai');
	const calls = toolCalls(reply);
	const message: Record<string, unknown> = {role: 'assistant', content: calls.length > 0 && text === '' ? null : text, refusal: null, annotations: []};
	if (reply.thinking) message.reasoning_content = reply.thinking.text;
	if (calls.length > 0) message.tool_calls = calls.map((c) => ({id: c.id, type: 'function', function: {name: c.name, arguments: c.args}}));
	return {
		id: `chatcmpl-${randomId(29)}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{index: 0, message, logprobs: null, finish_reason: replyFinish(reply)}],
		usage: usageObject(reply),
		service_tier: 'default',
		system_fingerprint: `fp_${randomId(10, '0123456789abcdef')}`,
	};
}

async function streamChat(ctx: Ctx, reply: FakeReply, model: string, includeUsage: boolean): Promise<void> {
	const {res} = ctx;
	startStream(res, 'text/event-stream; charset=utf-8', {'x-request-id': `req_${randomId(32, '0123456789abcdef')}`});
	const mid = reply.midStreamError;
	const writer = new FrameWriter(res, reply.chunkDelayMs ?? 0, mid?.afterChunks, () => {
		const error = {message: mid?.message ?? 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null};
		res.write(`data: ${JSON.stringify({error})}\n\n`);
		res.end();
	});
	const base = {
		id: `chatcmpl-${randomId(29)}`,
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model,
		service_tier: 'default',
		system_fingerprint: `fp_${randomId(10, '0123456789abcdef')}`,
	};
	const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
		...base,
		choices: [{index: 0, delta, logprobs: null, finish_reason: finish}],
		...(includeUsage ? {usage: null} : {}),
	});
	const frames: Array<Record<string, unknown> | '[DONE]'> = [chunk({role: 'assistant', content: '', refusal: null})];
	const n = replyChunks(reply);
	if (reply.thinking) for (const piece of splitText(reply.thinking.text, n)) frames.push(chunk({reasoning_content: piece}));
	for (const piece of splitText(replyText(reply, 'openai'), n)) frames.push(chunk({content: piece}));
	for (const [index, call] of toolCalls(reply).entries()) {
		frames.push(chunk({tool_calls: [{index, id: call.id, type: 'function', function: {name: call.name, arguments: ''}}]}));
		for (const piece of splitText(call.args, Math.max(2, n))) frames.push(chunk({tool_calls: [{index, function: {arguments: piece}}]}));
	}
	frames.push(chunk({}, replyFinish(reply)));
	if (includeUsage) frames.push({...base, choices: [], usage: usageObject(reply)});
	frames.push('[DONE]');
	for (const frame of frames) {
		const ok = await writer.write(`data: ${frame === '[DONE]' ? frame : JSON.stringify(frame)}\n\n`);
		if (!ok) return;
	}
	writer.end();
}
