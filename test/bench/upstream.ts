/**
 * The bench's fake provider: a raw node:http server that answers in microseconds.
 *
 *   POST /v1/chat/completions   OpenAI chat completions: JSON with usage, or SSE when "stream": true
 *                               (a usage chunk when stream_options.include_usage is set, then [DONE]).
 *   POST /v1/messages           Anthropic messages: JSON, or the Anthropic SSE event sequence.
 *
 * A body containing BENCH_SLOW is a slow stream: one delta every BENCH_SLOW_INTERVAL_MS (150) for
 * BENCH_SLOW_CHUNKS (10) deltas, the first one at once. Run as a child: prints {"port":N} on stdout.
 */
import {createServer, type IncomingMessage, type ServerResponse} from 'node:http';

const slowChunks = Number(process.env.BENCH_SLOW_CHUNKS ?? 10);
const slowIntervalMs = Number(process.env.BENCH_SLOW_INTERVAL_MS ?? 150);
const fastChunks = 5;
const usage = {input: 12, output: 8};

type Wire = {model?: unknown; stream?: unknown; stream_options?: {include_usage?: unknown}};

/** Writes a stream: `opening` at once, then `chunks` deltas (spaced when slow), then `closing`. */
function stream(res: ServerResponse, opening: string, delta: (index: number) => string, closing: string, slow: boolean): void {
	res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache'});
	const count = slow ? slowChunks : fastChunks;
	if (!slow) {
		let text = opening;
		for (let index = 0; index < count; index++) text += delta(index);
		res.end(text + closing);
		return;
	}
	res.write(opening + delta(0));
	let sent = 1;
	const timer = setInterval(() => {
		if (sent < count) res.write(delta(sent++));
		if (sent >= count) {
			clearInterval(timer);
			res.end(closing);
		}
	}, slowIntervalMs);
	res.on('close', () => clearInterval(timer));
}

function openai(res: ServerResponse, body: Wire, slow: boolean): void {
	const model = String(body.model ?? 'bench-model');
	const id = 'chatcmpl-bench';
	const created = Math.floor(Date.now() / 1000);
	const usageJson = {prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output};
	if (body.stream !== true) {
		const answer = {id, object: 'chat.completion', created, model, choices: [{index: 0, message: {role: 'assistant', content: 'Hello from the bench upstream.', refusal: null}, logprobs: null, finish_reason: 'stop'}], usage: usageJson};
		const text = JSON.stringify(answer);
		res.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)});
		res.end(text);
		return;
	}
	const frame = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({id, object: 'chat.completion.chunk', created, model, choices, ...extra})}\n\n`;
	const withUsage = body.stream_options?.include_usage === true;
	const opening = frame([{index: 0, delta: {role: 'assistant', content: ''}, logprobs: null, finish_reason: null}]);
	const delta = (index: number) => frame([{index: 0, delta: {content: `word${index} `}, logprobs: null, finish_reason: null}]);
	const closing = frame([{index: 0, delta: {}, logprobs: null, finish_reason: 'stop'}]) + (withUsage ? frame([], {usage: usageJson}) : '') + 'data: [DONE]\n\n';
	stream(res, opening, delta, closing, slow);
}

function anthropic(res: ServerResponse, body: Wire, slow: boolean): void {
	const model = String(body.model ?? 'bench-translated');
	// Answers are written as literals: keys added after a spread (`{...message, content}`) cost V8 (Node 20) a
	// slow path each, which made this endpoint 3.5 µs a request dearer than the OpenAI one, on the cores the
	// gateway's translated rows share with it.
	const message = {id: 'msg_bench', type: 'message', role: 'assistant'} as const;
	if (body.stream !== true) {
		const answer = {id: message.id, type: message.type, role: message.role, model, content: [{type: 'text', text: 'Hello from the bench upstream.'}], stop_reason: 'end_turn', stop_sequence: null, usage: {input_tokens: usage.input, output_tokens: usage.output}};
		const text = JSON.stringify(answer);
		res.writeHead(200, {'content-type': 'application/json', 'content-length': Buffer.byteLength(text)});
		res.end(text);
		return;
	}
	const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({type, ...data})}\n\n`;
	const opening =
		event('message_start', {message: {id: message.id, type: message.type, role: message.role, model, content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: usage.input, output_tokens: 1}}}) +
		event('content_block_start', {index: 0, content_block: {type: 'text', text: ''}});
	const delta = (index: number) => event('content_block_delta', {index: 0, delta: {type: 'text_delta', text: `word${index} `}});
	const closing =
		event('content_block_stop', {index: 0}) +
		event('message_delta', {delta: {stop_reason: 'end_turn', stop_sequence: null}, usage: {output_tokens: usage.output}}) +
		event('message_stop', {});
	stream(res, opening, delta, closing, slow);
}

function handle(req: IncomingMessage, res: ServerResponse): void {
	const parts: Buffer[] = [];
	req.on('data', (part: Buffer) => parts.push(part));
	req.on('end', () => {
		const raw = Buffer.concat(parts).toString('utf8');
		let body: Wire;
		try {
			body = JSON.parse(raw) as Wire;
		} catch {
			res.writeHead(400, {'content-type': 'application/json'});
			res.end('{"error":{"message":"the bench upstream expects a JSON body"}}');
			return;
		}
		const slow = raw.includes('BENCH_SLOW');
		const path = (req.url ?? '').split('?')[0];
		if (req.method === 'POST' && path === '/v1/chat/completions') return openai(res, body, slow);
		if (req.method === 'POST' && path === '/v1/messages') return anthropic(res, body, slow);
		res.writeHead(404, {'content-type': 'application/json'});
		res.end('{"error":{"message":"not found"}}');
	});
}

const server = createServer({keepAliveTimeout: 60_000}, handle);
// A deep accept queue, so that the direct reference never waits on dropped SYNs.
server.listen({port: 0, host: '127.0.0.1', backlog: 4096}, () => {
	const address = server.address();
	if (address === null || typeof address === 'string') throw new Error('no TCP address');
	process.stdout.write(`${JSON.stringify({port: address.port})}\n`);
});
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
