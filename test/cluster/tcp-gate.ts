/**
 * A TCP relay in front of a database server, to make it misbehave on cue the way a network does:
 * `hang()` keeps every connection open but passes no byte (a server that stopped answering, a
 * partition), `cut()` drops every connection and refuses new ones (a server that went away), and
 * `restore()` undoes either. Gateways are given the gate's port instead of the server's.
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
	let hanging = false;
	const track = (socket: Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => socket.destroy());
		if (hanging) socket.pause();
	};
	const onConnection = (client: Socket) => {
		const server = connect(targetPort, '127.0.0.1');
		track(client);
		track(server);
		client.pipe(server);
		server.pipe(client);
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
			for (const socket of sockets) socket.pause();
		},
		cut: stop,
		async restore() {
			hanging = false;
			for (const socket of sockets) socket.resume();
			if (!server.listening) {
				server = createServer(onConnection);
				await listen(port);
			}
		},
		close: stop,
	};
}
