/**
 * Counts the promises the gateway's own code creates while it is on: each `async` function, each
 * `await` and each `then` is one, and a turn of the microtask queue. Only promises whose creation
 * stack passes through `source/` count, and not the store's background work (the registry's poll
 * and the usage flush run on timers that may fall inside whatever is measured).
 */
import {createHook} from 'node:async_hooks';

const background = /\/source\/store\/|registry\.ts|usage-recorder\.ts|node_modules\/@?keyv/;

export type PromiseCounter = {
	/** Start counting from zero. */
	start(): void;
	/** Stop; what was counted since `start`. */
	stop(): number;
	/** Stop for good (call in `finally`). */
	dispose(): void;
};

export function gatewayPromiseCounter(): PromiseCounter {
	let count = 0;
	const hook = createHook({
		init(_id, type) {
			if (type !== 'PROMISE') return;
			const stack = new Error().stack ?? '';
			if (stack.includes('/source/') && !background.test(stack)) count++;
		},
	});
	// Deep enough to see the gateway's frames under Node's and Fastify's.
	const stackTraceLimit = Error.stackTraceLimit;
	Error.stackTraceLimit = 40;
	return {
		start() {
			count = 0;
			hook.enable();
		},
		stop() {
			hook.disable();
			return count;
		},
		dispose() {
			hook.disable();
			Error.stackTraceLimit = stackTraceLimit;
		},
	};
}
