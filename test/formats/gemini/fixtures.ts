/**
 * Fixture loader for test/fixtures/gemini.
 *
 * - `<case>.json`: one JSON body (a GenerateContentResponse, a request, or an error body).
 * - `<case>.chunks.txt`: one SSE event per line, the line being the event's `data` (a whole
 *   GenerateContentResponse). Gemini streams have no event names, so there is no `event|data` form
 *   here (that form is for Anthropic fixtures). Blank lines are skipped.
 *
 * The captures come from real Gemini API answers published as fixtures in vercel/ai
 * (packages/google/src/__fixtures__: google-text, google-tool-call, google-reasoning-gemini3,
 * google-tool-call-gemini3, google-usage-raw-live, google-429-retry-info, issue-22372-live-errors),
 * with long signatures shortened; the others (parallel calls, 2.5 thought summaries, mid-stream
 * error, requests) are written in the same shape from the API reference.
 */
import {readFileSync} from 'node:fs';
export {collect, fromArray as replay, recordingContext as testContext} from '../../helpers/streams.js';
import type {SseMessage} from '../../../source/formats/sse.js';

const directory = new URL('../../fixtures/gemini/', import.meta.url);

export function loadJson(name: string): unknown {
	return JSON.parse(readFileSync(new URL(`${name}.json`, directory), 'utf8'));
}

export function loadChunks(name: string): SseMessage[] {
	return readFileSync(new URL(`${name}.chunks.txt`, directory), 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '')
		.map(data => ({data}));
}




/** An async iterable fed by hand, to prove a generator answers each item before the next one exists. */
export function channel<T>() {
	const items: T[] = [];
	const waiters: Array<(result: IteratorResult<T>) => void> = [];
	let closed = false;
	return {
		push(item: T) {
			const waiter = waiters.shift();
			if (waiter) waiter({value: item, done: false});
			else items.push(item);
		},
		close() {
			closed = true;
			for (const waiter of waiters.splice(0)) waiter({value: undefined, done: true});
		},
		[Symbol.asyncIterator](): AsyncIterator<T> {
			return {
				next: async () => {
					if (items.length > 0) return {value: items.shift()!, done: false};
					if (closed) return {value: undefined, done: true};
					return new Promise(resolve => waiters.push(resolve));
				},
			};
		},
	};
}
