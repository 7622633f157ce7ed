/**
 * What the adapter tests of every format share: feeding items as a stream, collecting one, and a
 * translation context that records warnings and serves images from a map.
 */
import type {TranslationContext} from '../../source/formats/adapter.js';

/** Yields items one by one, each after a microtask, as a stream would deliver them. */
export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
	for (const item of items) {
		await Promise.resolve();
		yield item;
	}
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
	const out: T[] = [];
	for await (const item of iterable) out.push(item);
	return out;
}

import {BoundedSignatureMemory} from '../../source/formats/signature.js';

export type RecordingContext = TranslationContext & {readonly warnings: string[]; readonly fetched: string[]};

/** Warnings are recorded; `fetchImage` serves `images` and fails for any other URL. */
export function recordingContext(images: Readonly<Record<string, {mediaType: string; data: string}>> = {}): RecordingContext {
	const warnings: string[] = [];
	const fetched: string[] = [];
	return {
		warnings,
		fetched,
		warn(message) {
			warnings.push(message);
		},
		signatures: new BoundedSignatureMemory(),
		async fetchImage(url) {
			fetched.push(url);
			const image = images[url];
			if (!image) throw new Error(`unexpected image fetch: ${url}`);
			return image;
		},
	};
}

/** The SSE frames in what an encoder wrote, one per frame however they were chunked (an event's frames leave as one piece). */
export function sseFrames(chunks: readonly string[]): string[] {
	return chunks.join('').split(/(?<=\n\n)/).filter(frame => frame !== '');
}
