/**
 * The bench's reference for "what the stack costs": Fastify + undici and nothing else. It parses
 * the JSON body, forwards it to the upstream (BENCH_UPSTREAM, an origin) and pipes the answer
 * back — no auth, no routing, no usage, no logging. Run as a child: prints {"port":N} on stdout.
 */
import Fastify from 'fastify';
import {Pool} from 'undici';

const upstream = process.env.BENCH_UPSTREAM;
if (!upstream) throw new Error('BENCH_UPSTREAM (the upstream origin) is not set');
const pool = new Pool(upstream, {keepAliveTimeout: 30_000});
const app = Fastify({logger: false, bodyLimit: 32 * 1024 * 1024});

app.post('/v1/chat/completions', async (request, reply) => {
	const abort = new AbortController();
	reply.raw.once('close', () => {
		if (!reply.raw.writableFinished) abort.abort();
	});
	const answer = await pool.request({
		path: '/v1/chat/completions',
		method: 'POST',
		headers: {'content-type': 'application/json'},
		body: JSON.stringify(request.body),
		signal: abort.signal,
	});
	reply.code(answer.statusCode);
	const type = answer.headers['content-type'];
	if (typeof type === 'string') reply.header('content-type', type);
	return reply.send(answer.body);
});

const stop = () => {
	void app.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

// The listen backlog serve uses (4096), so a burst of connections queues here too instead of being dropped.
const url = await app.listen({host: '127.0.0.1', port: 0, backlog: 4096});
process.stdout.write(`${JSON.stringify({port: Number(new URL(url).port)})}\n`);
