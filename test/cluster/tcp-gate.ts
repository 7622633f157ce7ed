/**
 * A TCP relay in front of a database server, to make it misbehave on cue the way a network does:
 * `hang()` keeps every connection open but passes no byte (a server that stopped answering, a
 * partition), `cut()` drops every connection and refuses new ones (a server that went away), and
 * `restore()` undoes either. Gateways are given the gate's port instead of the server's.
 *
 * Bytes are forwarded by hand, not with `pipe()`: a hang must hold every byte that arrives after it,
 * and `pipe()` resumes a paused source on its destination's `drain`, which let a few through under
 * load. What a hang held is sent, in order, on `restore()`.
 */
import {connect, createServer, type Server, type Socket} from 'node:net';

export type TcpGate = {
	readonly port: number;
	hang(): void;
	cut(): Promise<void>;
	restore(): Promise<void>;
	close(): Promise<void>;
};

export async function startTcpGate(targetPort: number): Promise<TcpGate> {
	const sockets = new Set<Socket>();
	/** What each direction of each connection received while hung, to send on restore. */
	const held = new Map<Socket, {to: Socket; chunks: Buffer[]}>();
	let hanging = false;
	const track = (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => {
			sockets.delete(socket);
			held.delete(socket);
		});
		socket.on('error', () => socket.destroy());
	};
	const forward = (from: Socket, to: Socket) => {
		const queue = {to, chunks: [] as Buffer[]};
		held.set(from, queue);
		from.on('data', (chunk: Buffer) => {
			if (hanging || queue.chunks.length > 0) queue.chunks.push(chunk);
			else to.write(chunk);
		});
	};
	const onConnection = (client: Socket) => {
		const server = connect(targetPort, '127.0.0.1');
		track(client);
		track(server);
		forward(client, server);
		forward(server, client);
		client.on('close', () => server.destroy());
		server.on('close', () => client.destroy());
	};
	let server: Server = createServer(onConnection);
	const listen = (port: number) => new Promise<number>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			resolve(typeof address === 'object' && address ? address.port : port);
		});
	});
	const port = await listen(0);
	const stop = () => new Promise<void>(resolve => {
		for (const socket of sockets) socket.destroy();
		server.close(() => resolve());
	});
	return {
		port,
		hang() {
			hanging = true;
		},
		cut: stop,
		async restore() {
			hanging = false;
			for (const queue of held.values()) {
				for (const chunk of queue.chunks.splice(0)) if (!queue.to.destroyed) queue.to.write(chunk);
			}
			if (!server.listening) {
				server = createServer(onConnection);
				await listen(port);
			}
		},
		close: stop,
	};
}
