/** A temporary user home and gateway data directory, with a store that has one channel. */
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {addChannel} from '../../source/services/channels.js';
import type {ApplyOptions} from '../../source/services/takeover/index.js';
import {Store} from '../../source/store/index.js';
import {tempHome} from '../helpers/gateway.js';

export type Homes = {
	readonly root: string;
	/** The user's home ($HOME). */
	readonly home: string;
	/** The gateway's data directory ($GATEWAY_TUI_HOME). */
	readonly dataDir: string;
	readonly store: Store;
	/** Options for the takeover service: this home, this data dir, an environment without the user's variables. */
	options(extra?: ApplyOptions): ApplyOptions;
	/** Writes a file under the home (creating directories). */
	write(path: string, text: string): string;
	read(path: string): string;
	close(): Promise<void>;
};

export async function homes(options: {channel?: boolean} = {}): Promise<Homes> {
	const root = tempHome();
	const home = join(root, 'home');
	const dataDir = join(root, 'data');
	mkdirSync(home);
	const store = await Store.open(dataDir);
	if (options.channel !== false) {
		await addChannel(store, {name: 'main', format: 'openai', baseUrl: 'https://api.openai.test/v1', apiKey: 'sk-real-0123456789abcdef', models: 'gpt-4o,fast=gpt-4o-mini'});
	}
	return {
		root,
		home,
		dataDir,
		store,
		options: extra => ({home, dataDir, env: {}, gatewayUrl: 'http://127.0.0.1:11580', ...extra}),
		write(path, text) {
			const full = join(home, path);
			mkdirSync(dirname(full), {recursive: true});
			writeFileSync(full, text);
			return full;
		},
		read: path => readFileSync(join(home, path), 'utf8'),
		async close() {
			await store.close();
			rmSync(root, {recursive: true, force: true});
		},
	};
}
