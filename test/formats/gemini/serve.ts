/**
 * A one-route HTTP server on 127.0.0.1:0 that answers every request with the given chunks, written
 * one by one, so an official SDK can read what an encoder produced. Dispose it with `await using`.
 */
import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';

export type Reply = {readonly status?: number; readonly contentType: string; readonly chunks: readonly string[]};

export async function serve(reply: (request: IncomingMessage) => Reply) {
	const requests: Array<{url: string; body: string}> = [];
	const server = createServer(async (request, response) => {
		let body = '';
		for await (const piece of request) body += String(piece);
		requests.push({url: request.url ?? '', body});
		const {status = 200, contentType, chunks} = reply(request);
		response.writeHead(status, {'content-type': contentType});
		for (const chunk of chunks) response.write(chunk);
		response.end();
	});
	await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
	const {port} = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		async [Symbol.asyncDispose]() {
			server.closeAllConnections();
			await new Promise(resolve => server.close(resolve));
		},
	};
}
