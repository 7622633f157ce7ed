/**
 * Strict fake of the Gemini API (base URL `http://127.0.0.1:PORT`, paths `/v1beta/...`):
 * `POST /v1beta/models/{m}:generateContent`, `:streamGenerateContent` (`alt=sse` → SSE, otherwise a
 * progressively streamed JSON array), `:countTokens`, `GET /v1beta/models` (paged: `pageSize` default 50, at
 * most 1000), `GET /v1beta/models/{m}`.
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
import {COUNT_REQUEST, GENERATE_REQUEST, parseProto} from './gemini-proto.js';
import {checkContents, checkGenerateRequest} from './gemini-validate.js';

export const GEMINI_DEFAULT_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-lite'];
const FINISH = {stop: 'STOP', length: 'MAX_TOKENS', tool_calls: 'STOP', content_filter: 'SAFETY'} as const;
const STATUS: Record<number, [string, string]> = {
	400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
	401: ['UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.'],
	403: ['PERMISSION_DENIED', 'The caller does not have permission'],
	404: ['NOT_FOUND', 'Requested entity was not found.'],
	429: ['RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.'],
	500: ['INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'],
	503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
	504: ['DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.'],
};

export function startFakeGemini(opts: FakeOptions = {}): Promise<FakeProvider> {
	const apiKey = opts.apiKey ?? defaultKey('AIza-real-');
	const models = opts.models ?? [...GEMINI_DEFAULT_MODELS];
	return startFakeServer('gemini', apiKey, models, '', handle);
}

export function geminiErrorBody(status: number, message?: string, details?: unknown[]): Record<string, unknown> {
	const [name, fallback] = STATUS[status] ?? (status >= 500 ? ['INTERNAL', STATUS[500][1]] : ['INVALID_ARGUMENT', STATUS[400][1]]);
	return {error: {code: status, message: message ?? fallback, status: name, ...(details ? {details} : {})}};
}

function sendError(ctx: Ctx, status: number, message?: string, details?: unknown[]): void {
	sendJson(ctx.res, status, geminiErrorBody(status, message, details), {'content-type': 'application/json; charset=UTF-8'});
}

/** Returns true when the request may proceed. */
function authorize(ctx: Ctx): boolean {
	const key = ctx.rec.headers['x-goog-api-key'] ?? ctx.rec.query.key;
	if (key === undefined || key === '') {
		if (ctx.rec.headers.authorization !== undefined) sendError(ctx, 401);
		else sendError(ctx, 403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
		return false;
	}
	if (key === ctx.apiKey) return true;
	const message = 'API key not valid. Please pass a valid API key.';
	sendError(ctx, 400, message, [
		{'@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: {service: 'generativelanguage.googleapis.com'}},
		{'@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message},
	]);
	return false;
}

function modelObject(id: string): Record<string, unknown> {
	const words = id.split('-').map((w) => (w === 'gemini' ? 'Gemini' : `${w.charAt(0).toUpperCase()}${w.slice(1)}`));
	return {
		name: `models/${id}`,
		version: '001',
		displayName: words.join(' '),
		description: `Fake ${words.join(' ')}`,
		inputTokenLimit: 1_048_576,
		outputTokenLimit: 65_536,
		supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
		temperature: 1,
		topP: 0.95,
		topK: 64,
		maxTemperature: 2,
		thinking: true,
	};
}

/** ListModels: `pageSize` (default 50, at most 1000 — larger is taken as 1000), `pageToken` from the last page's `nextPageToken`. */
function listModels(ctx: Ctx): void {
	const {pageSize: sizeText, pageToken: token} = ctx.rec.query;
	const size = sizeText === undefined ? 50 : Number(sizeText);
	if (!Number.isInteger(size) || size < 0) return sendError(ctx, 400, `Invalid value at 'page_size' (TYPE_INT32), "${sizeText}"`);
	const pageSize = size === 0 ? 50 : Math.min(size, 1000);
	const start = token === undefined || token === '' ? 0 : Number(Buffer.from(token, 'base64url').toString());
	if (!Number.isInteger(start) || start < 0 || start > ctx.models.length) return sendError(ctx, 400, 'Invalid page token.');
	const page = ctx.models.slice(start, start + pageSize);
	const next = start + page.length < ctx.models.length ? Buffer.from(String(start + page.length)).toString('base64url') : undefined;
	sendJson(ctx.res, 200, {models: page.map(modelObject), ...(next ? {nextPageToken: next} : {})});
}

async function handle(ctx: Ctx): Promise<void> {
	const method = ctx.req.method ?? 'GET';
	const path = decodeURIComponent(ctx.url.pathname);
	if (method === 'GET' && path === '/v1beta/models') {
		if (authorize(ctx)) listModels(ctx);
		return;
	}
	const match = /^\/v1beta\/models\/([^/:]+)(?::([A-Za-z]+))?$/.exec(path);
	const action = match?.[2];
	const known = method === 'GET' ? action === undefined : action === 'generateContent' || action === 'streamGenerateContent' || action === 'countTokens';
	if (!match || !known) return sendError(ctx, 404);
	if (!authorize(ctx)) return;
	const model = match[1];
	if (!ctx.models.includes(model)) {
		return sendError(ctx, 404, `models/${model} is not found for API version v1beta, or is not supported for ${action ?? 'get'}. Call ListModels to see the list of available models and their supported methods.`);
	}
	if (action === undefined) return sendJson(ctx.res, 200, modelObject(model));
	if (ctx.body && !ctx.body.ok) return sendError(ctx, 400, 'Invalid JSON payload received. Unexpected token.');
	const parsed = parseProto(ctx.body?.value ?? {}, action === 'countTokens' ? COUNT_REQUEST : GENERATE_REQUEST);
	if (parsed.violations.length > 0) {
		return sendError(ctx, 400, parsed.violations.map((v) => v.description).join('\n'), [
			{'@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: parsed.violations},
		]);
	}
	const body = parsed.value;
	if (action === 'countTokens') return countTokens(ctx, body);
	const invalid = checkGenerateRequest(body);
	if (invalid) return sendError(ctx, 400, invalid);

	const reply = ctx.nextReply();
	if (!(await applyTransport(ctx, reply))) return;
	if (reply.error) {
		const details = reply.error.retryAfter === undefined ? undefined : [{'@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${reply.error.retryAfter}s`}];
		return sendError(ctx, reply.error.status, reply.error.message, details);
	}
	if (action === 'generateContent') return sendJson(ctx.res, 200, render(reply, model, responseIdFor(), groups(reply)), {'content-type': 'application/json; charset=UTF-8'});
	await streamContent(ctx, reply, model, ctx.rec.query.alt === 'sse');
}

function countTokens(ctx: Ctx, body: Record<string, unknown>): void {
	const inner = isRecord(body.generateContentRequest) ? body.generateContentRequest : undefined;
	if (inner && body.contents !== undefined) return sendError(ctx, 400, '* CountTokensRequest: contents and generate_content_request are mutually exclusive.\n');
	const invalid = inner ? checkGenerateRequest(inner, 'CountTokensRequest.generate_content_request') : checkContents(body.contents, 'CountTokensRequest');
	if (invalid) return sendError(ctx, 400, invalid);
	const source = inner ? {contents: inner.contents, systemInstruction: inner.systemInstruction, tools: inner.tools} : {contents: body.contents};
	const total = Math.ceil(JSON.stringify(source).length / 4);
	sendJson(ctx.res, 200, {totalTokens: total, promptTokensDetails: [{modality: 'TEXT', tokenCount: total}]});
}

function responseIdFor(): string {
	return randomId(22);
}

type Part = Record<string, unknown>;

/** The response parts, grouped the way they are streamed (thought pieces, text pieces, all calls at once). */
function groups(reply: FakeReply, pieces = 1): Part[][] {
	const out: Part[][] = [];
	if (reply.thinking) for (const piece of splitText(reply.thinking.text, pieces)) out.push([{text: piece, thought: true}]);
	for (const piece of splitText(replyText(reply, 'gemini'), pieces)) out.push([{text: piece}]);
	const calls = (reply.toolCalls ?? []).map((c): Part => ({functionCall: {...(c.id === undefined ? {} : {id: c.id}), name: c.name, args: c.args}}));
	if (calls.length > 0) out.push(calls);
	if (out.every((g) => g[0].thought === true)) out.push([{text: ''}]);
	const firstAfterThought = out.find((g) => g[0].thought !== true);
	if (reply.thinking && firstAfterThought) firstAfterThought[0].thoughtSignature = reply.thinking.signature ?? Buffer.from(`sig-${randomId(24)}`).toString('base64');
	return out;
}

function usageMetadata(reply: FakeReply, final: boolean): Record<string, unknown> {
	const u = replyUsage(reply);
	const prompt = {promptTokenCount: u.input, promptTokensDetails: [{modality: 'TEXT', tokenCount: u.input}]};
	if (!final) return {...prompt, totalTokenCount: u.input};
	return {
		...prompt,
		candidatesTokenCount: Math.max(0, u.output - u.reasoning),
		totalTokenCount: u.input + u.output,
		...(u.cached > 0 ? {cachedContentTokenCount: u.cached, cacheTokensDetails: [{modality: 'TEXT', tokenCount: u.cached}]} : {}),
		...(u.reasoning > 0 ? {thoughtsTokenCount: u.reasoning} : {}),
	};
}

function render(reply: FakeReply, model: string, responseId: string, parts: Part[][], final = true): Record<string, unknown> {
	const candidate: Record<string, unknown> = {content: {parts: parts.flat(), role: 'model'}};
	if (final) candidate.finishReason = FINISH[replyFinish(reply)];
	candidate.index = 0;
	return {candidates: [candidate], usageMetadata: usageMetadata(reply, final), modelVersion: model, responseId};
}

async function streamContent(ctx: Ctx, reply: FakeReply, model: string, sse: boolean): Promise<void> {
	const {res} = ctx;
	startStream(res, sse ? 'text/event-stream' : 'application/json; charset=UTF-8');
	const writer = new FrameWriter(res, reply.chunkDelayMs ?? 0, reply.midStreamError?.afterChunks, () => ctx.destroy());
	const responseId = responseIdFor();
	const frames = groups(reply, replyChunks(reply));
	for (const [i, group] of frames.entries()) {
		const json = JSON.stringify(render(reply, model, responseId, [group], i === frames.length - 1));
		const text = sse ? `data: ${json}\r\n\r\n` : `${i === 0 ? '[' : '\r\n,'}${json}`;
		if (!(await writer.write(text))) return;
	}
	if (!sse && !writer.closed) res.write(']');
	writer.end();
}
