/**
 * Fixtures under test/fixtures/responses/ are shaped like real captures of the Responses API:
 * - `<case>.json` is one HTTP body (a request, a Response object or an error), pretty-printed.
 * - `<case>.chunks.txt` is one SSE event per line: the event's `data` (its JSON, with `type` and
 *   `sequence_number`); the `event:` line of each frame repeats `type`, so it is not stored.
 */
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import type {SseMessage} from '../../../source/formats/sse.js';

export {collect, events, fromArray, testContext, type TestContext} from '../openai/helpers.js';

const dir = fileURLToPath(new URL('../../fixtures/responses/', import.meta.url));

export function fixture(name: string): unknown {
	return JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as unknown;
}

export function chunkLines(name: string): string[] {
	return readFileSync(`${dir}${name}.chunks.txt`, 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '');
}

/** The fixture's events as SSE messages, `event:` set to each one's type as the API sends it. */
export async function* sseMessages(lines: readonly string[]): AsyncGenerator<SseMessage> {
	for (const data of lines) yield {event: (JSON.parse(data) as {type: string}).type, data};
}

export type Frame = {readonly event: string; readonly data: Record<string, unknown>};

/** Parse encoded SSE frames back into (event, data) pairs, checking each frame's `event:` line matches its `type`. */
export function parseFrames(frames: readonly string[]): Frame[] {
	return frames
		.join('')
		.split('\n\n')
		.filter(frame => frame !== '')
		.map(frame => {
			const [eventLine, ...dataLines] = frame.split('\n');
			const event = eventLine!.replace(/^event: /, '');
			const data = JSON.parse(dataLines.map(line => line.replace(/^data: /, '')).join('\n')) as Record<string, unknown>;
			if (data.type !== event) throw new Error(`frame event "${event}" but data.type "${String(data.type)}"`);
			return {event, data};
		});
}
