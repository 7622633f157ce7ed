/** The TUI's gateway core in its worker thread, over a home with one OpenAI channel and one virtual key. */
import {Store} from '../../source/store/index.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import {startCoreWorker, type CoreHandle} from '../../source/proxy/worker-host.js';
import {tempHome} from './gateway.js';

export type WorkerCore = {
	readonly home: string;
	readonly core: CoreHandle;
	/** The virtual key's secret. */
	readonly secret: string;
	/** One chat completion through the core, its answer read whole; resolves to its request id. */
	call(content: string): Promise<string>;
};

/** Start the core (from the TypeScript sources) on a new home whose channel `up` (model `m`) points at `providerUrl`. */
export async function startWorkerCore(providerUrl: string): Promise<WorkerCore> {
	const home = tempHome();
	const store = await Store.open(home, {home});
	await addChannel(store, {name: 'up', format: 'openai', baseUrl: `${providerUrl}/v1`, apiKey: 'sk-real-worker-key-0123456789', models: 'm'});
	const {secret} = await createKey(store, {name: 'tui'});
	await store.close();
	const core = await startCoreWorker({home, host: '127.0.0.1', port: 0, output: () => {}, onCrash: () => {}, loader: new URL('./ts-worker.mjs', import.meta.url)});
	return {
		home,
		core,
		secret,
		async call(content) {
			const response = await fetch(`${core.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'm', messages: [{role: 'user', content}]})});
			await response.text();
			return response.headers.get('x-request-id')!;
		},
	};
}
