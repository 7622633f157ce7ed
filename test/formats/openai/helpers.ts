/**
 * Fixtures under test/fixtures/openai/ are shaped like real captures:
 * - `<case>.json` is one HTTP body (a request, an answer or an error body), pretty-printed.
 * - `<case>.chunks.txt` is one SSE event per line: the event's `data` exactly as the server sent it
 *   (a JSON chunk, or `[DONE]`). OpenAI streams have no `event:` lines. Blank lines are ignored.
 */
import {readFileSync} from 'node:fs';
import {fromArray} from '../../helpers/streams.js';
export {collect, fromArray, recordingContext as testContext, type RecordingContext as TestContext} from '../../helpers/streams.js';
import {fileURLToPath} from 'node:url';
import type {IRStreamEvent} from '../../../source/base/ir.js';
import type {SseMessage} from '../../../source/formats/sse.js';

const dir = fileURLToPath(new URL('../../fixtures/openai/', import.meta.url));

export function fixture(name: string): unknown {
	return JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8')) as unknown;
}

export function chunkLines(name: string): string[] {
	return readFileSync(`${dir}${name}.chunks.txt`, 'utf8')
		.split('\n')
		.filter(line => line.trim() !== '');
}

export async function* sseMessages(lines: readonly string[]): AsyncGenerator<SseMessage> {
	for (const data of lines) yield {data};
}




/** Parse encoded SSE frames back into their data payloads (JSON objects, or the `[DONE]` string). */
export function framePayloads(frames: readonly string[]): unknown[] {
	return frames
		.join('')
		.split('\n\n')
		.filter(frame => frame !== '')
		.map(frame => {
			const data = frame
				.split('\n')
				.map(line => line.replace(/^data: /, ''))
				.join('\n');
			return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
		});
}

export const events = (items: readonly IRStreamEvent[]): AsyncGenerator<IRStreamEvent> => fromArray(items);
