/**
 * A push → pull bridge: the relay pushes a copy of what it forwards, and a reader (the usage meter)
 * pulls it as an async iterable, at its own pace. Unbounded, but it only ever holds what the reader
 * has not consumed yet, and the meter reads as fast as the bytes arrive.
 */
export class Pipe<T> implements AsyncIterable<T> {
	private readonly queue: T[] = [];
	private waiting: ((result: IteratorResult<T>) => void) | undefined;
	private ended = false;

	push(item: T): void {
		if (this.ended) return;
		if (this.waiting) {
			const resolve = this.waiting;
			this.waiting = undefined;
			resolve({value: item, done: false});
		} else {
			this.queue.push(item);
		}
	}

	end(): void {
		this.ended = true;
		if (this.waiting) {
			const resolve = this.waiting;
			this.waiting = undefined;
			resolve({value: undefined, done: true});
		}
	}

	[Symbol.asyncIterator](): AsyncIterator<T> {
		return {
			next: () => {
				if (this.queue.length > 0) return Promise.resolve({value: this.queue.shift()!, done: false});
				if (this.ended) return Promise.resolve({value: undefined, done: true});
				return new Promise(resolve => {
					this.waiting = resolve;
				});
			},
			return: () => {
				this.ended = true;
				this.queue.length = 0;
				return Promise.resolve({value: undefined, done: true});
			},
		};
	}
}

/**
 * Split a streamed JSON array (`[{…},{…}]`, Gemini's stream without alt=sse) into its element texts
 * as each element completes.
 */
export async function* jsonArrayElements(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
	const decoder = new TextDecoder();
	let depth = 0;
	let inString = false;
	let escaped = false;
	let current = '';
	for await (const chunk of chunks) {
		const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, {stream: true});
		for (const char of text) {
			if (depth > 1 || (depth === 1 && char !== ',' && char !== ']' && !/\s/.test(char)) || inString) current += char;
			if (inString) {
				if (escaped) escaped = false;
				else if (char === '\\') escaped = true;
				else if (char === '"') inString = false;
				continue;
			}
			if (char === '"') inString = true;
			else if (char === '{' || char === '[') depth++;
			else if (char === '}' || char === ']') {
				depth--;
				if (depth === 1 && current) {
					yield current;
					current = '';
				}
			}
		}
	}
}
