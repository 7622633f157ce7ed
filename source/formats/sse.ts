/**
 * Server-sent events: a real parser (eventsource-parser) over a byte stream, and the frame writer.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import {createParser, type EventSourceMessage} from 'eventsource-parser';

export type SseMessage = {readonly event?: string; readonly data: string; readonly id?: string};

/**
 * Parse a stream of bytes (or strings) into SSE messages, as they arrive. A consumer that stops
 * before the end (a decoder returns at its terminal event) ends the source — or, with `leftover`,
 * hands what is left of it over instead (the proxy drains a provider's body rather than destroy it).
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>, leftover?: (rest: AsyncIterator<Uint8Array | string>) => void): AsyncGenerator<SseMessage> {
	const queue: SseMessage[] = [];
	const parser = createParser({
		onEvent(message: EventSourceMessage) {
			queue.push({event: message.event, data: message.data, id: message.id});
		},
	});
	const decoder = new TextDecoder();
	const source = chunks[Symbol.asyncIterator]();
	let ended = false;
	try {
		for (let next = await source.next(); !next.done; next = await source.next()) {
			parser.feed(typeof next.value === 'string' ? next.value : decoder.decode(next.value, {stream: true}));
			while (queue.length > 0) yield queue.shift()!;
		}
		ended = true;
	} catch (error) {
		ended = true;
		throw error;
	} finally {
		if (!ended) {
			if (leftover) leftover(source);
			else await source.return?.();
		}
	}
	parser.feed(decoder.decode());
	// A last event without its blank line is still delivered by real clients; flush it the same way.
	parser.feed('\n\n');
	while (queue.length > 0) yield queue.shift()!;
}

/** One SSE frame. `event` is omitted for formats that use only `data:` lines (OpenAI, Gemini). */
export function sseFrame(data: string, event?: string): string {
	const lines = data.split('\n').map(line => `data: ${line}`).join('\n');
	return event ? `event: ${event}\n${lines}\n\n` : `${lines}\n\n`;
}
