/**
 * Strict fake embedding providers, shaped as the providers document them: OpenAI `POST /v1/embeddings`
 * (Bearer key; `input` string | string[] | token ids | token-id lists; `encoding_format` float or
 * base64 — little-endian float32; `dimensions`; `usage.prompt_tokens`), and Gemini `:embedContent` /
 * `:batchEmbedContents` (`x-goog-api-key`; every batch request must name the URL's model; text parts
 * only; `outputDimensionality`; no usage). Vectors are a deterministic function of the input, with
 * values exact in float32, so a test can check them byte for byte.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 * @see https://ai.google.dev/api/embeddings
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';
import type {AddressInfo} from 'node:net';

export type FakeEmbeddings = {readonly url: string; readonly apiKey: string; readonly received: Array<{path: string; body: unknown}>; close(): Promise<void>};

/** The vector the fakes answer for an input (a text, or token ids joined by commas). */
export function vectorOf(input: string, dimensions = 4): number[] {
	let hash = 0;
	for (const char of input) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
	return Array.from({length: dimensions}, (_, index) => (((hash + index * 37) % 1024) - 512) / 1024);
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function send(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, {'content-type': 'application/json'});
	res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	try {
		return JSON.parse(Buffer.concat(chunks).toString('utf8'));
	} catch {
		return undefined;
	}
}

function openaiInputs(input: unknown): string[] | null {
	const isTokens = (value: unknown): value is number[] => Array.isArray(value) && value.length > 0 && value.every(Number.isInteger);
	if (typeof input === 'string') return [input];
	if (isTokens(input)) return [input.join(',')];
	if (Array.isArray(input) && input.length > 0 && input.every(item => typeof item === 'string' || isTokens(item))) return input.map(item => (typeof item === 'string' ? item : (item as number[]).join(',')));
	return null;
}

function openaiError(res: ServerResponse, status: number, message: string, param: string | null = null): void {
	send(res, status, {error: {message, type: status === 401 ? 'invalid_request_error' : 'invalid_request_error', param, code: status === 401 ? 'invalid_api_key' : null}});
}

function handleOpenai(req: IncomingMessage, res: ServerResponse, body: unknown, apiKey: string): void {
	if (req.headers.authorization !== `Bearer ${apiKey}`) return openaiError(res, 401, 'Incorrect API key provided.');
	if (req.url !== '/v1/embeddings') return openaiError(res, 404, `Unknown path ${req.url}`);
	const request = (body ?? {}) as {model?: unknown; input?: unknown; encoding_format?: unknown; dimensions?: unknown};
	if (typeof request.model !== 'string') return openaiError(res, 400, "you must provide a model parameter", 'model');
	const inputs = openaiInputs(request.input);
	if (!inputs) return openaiError(res, 400, "'input' is invalid", 'input');
	const format = request.encoding_format ?? 'float';
	if (format !== 'float' && format !== 'base64') return openaiError(res, 400, `Invalid encoding_format ${String(format)}`, 'encoding_format');
	const dimensions = request.dimensions === undefined ? 4 : request.dimensions;
	if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1) return openaiError(res, 400, 'dimensions must be a positive integer', 'dimensions');
	const data = inputs.map((input, index) => {
		const vector = vectorOf(input, dimensions);
		const buffer = Buffer.alloc(vector.length * 4);
		vector.forEach((value, at) => buffer.writeFloatLE(value, at * 4));
		return {object: 'embedding', index, embedding: format === 'base64' ? buffer.toString('base64') : vector};
	});
	const tokens = inputs.reduce((sum, input) => sum + Math.max(1, input.includes(',') && /^[\d,]+$/.test(input) ? input.split(',').length : words(input)), 0);
	send(res, 200, {object: 'list', data, model: request.model, usage: {prompt_tokens: tokens, total_tokens: tokens}});
}

function geminiError(res: ServerResponse, status: number, message: string): void {
	const statuses: Record<number, string> = {400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND'};
	send(res, status, {error: {code: status, message, status: statuses[status] ?? 'INTERNAL'}});
}

function geminiText(content: unknown): string | null {
	const parts = (content as {parts?: unknown} | null)?.parts;
	if (!Array.isArray(parts) || parts.length === 0) return null;
	const texts = parts.map(part => (part as {text?: unknown} | null)?.text);
	return texts.every(text => typeof text === 'string') ? (texts as string[]).join('\n') : null;
}

function handleGemini(req: IncomingMessage, res: ServerResponse, body: unknown, apiKey: string): void {
	if (req.headers['x-goog-api-key'] !== apiKey) return geminiError(res, 400, 'API key not valid. Please pass a valid API key.');
	const match = /^\/v1beta\/models\/([^/:]+):(embedContent|batchEmbedContents)$/.exec(req.url ?? '');
	if (!match) return geminiError(res, 404, `Unknown path ${req.url}`);
	const [, model, method] = match;
	const request = (body ?? {}) as {content?: unknown; outputDimensionality?: unknown; requests?: unknown};
	if (method === 'embedContent') {
		const text = geminiText(request.content);
		if (text === null) return geminiError(res, 400, '* EmbedContentRequest.content: contents are required.');
		return send(res, 200, {embedding: {values: vectorOf(text, typeof request.outputDimensionality === 'number' ? request.outputDimensionality : 4)}});
	}
	if (!Array.isArray(request.requests) || request.requests.length === 0) return geminiError(res, 400, '* BatchEmbedContentsRequest.requests: at least one request is required.');
	const embeddings = [];
	for (const [index, item] of request.requests.entries()) {
		const one = (item ?? {}) as {model?: unknown; content?: unknown; outputDimensionality?: unknown};
		if (one.model !== `models/${model}`) return geminiError(res, 400, `* BatchEmbedContentsRequest.requests[${index}].model: model must be models/${model}.`);
		const text = geminiText(one.content);
		if (text === null) return geminiError(res, 400, `* BatchEmbedContentsRequest.requests[${index}].content: contents are required.`);
		embeddings.push({values: vectorOf(text, typeof one.outputDimensionality === 'number' ? one.outputDimensionality : 4)});
	}
	send(res, 200, {embeddings});
}

export async function startFakeEmbeddings(format: 'openai' | 'gemini'): Promise<FakeEmbeddings> {
	const apiKey = format === 'openai' ? 'sk-fake-embed-0123456789abcdef' : 'AIzaFakeEmbed0123456789abcdef';
	const received: Array<{path: string; body: unknown}> = [];
	const server = createServer((req, res) => {
		void readJson(req).then(body => {
			received.push({path: req.url ?? '', body});
			if (req.method !== 'POST') return send(res, 405, {error: {message: 'POST only'}});
			if (format === 'openai') handleOpenai(req, res, body, apiKey);
			else handleGemini(req, res, body, apiKey);
		});
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: format === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`,
		apiKey,
		received,
		close: () => new Promise<void>(resolve => server.close(() => resolve())),
	};
}
