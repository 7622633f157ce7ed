/**
 * Server-sent events: a real parser (eventsource-parser) over a byte stream, and the frame writer.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
import {createParser, type EventSourceMessage} from 'eventsource-parser';

export type SseMessage = {readonly event?: string; readonly data: string; readonly id?: string};

/** Parse a stream of bytes (or strings) into SSE messages, as they arrive. */
export async function* parseSse(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<SseMessage> {
	const queue: SseMessage[] = [];
	const parser = createParser({
		onEvent(message: EventSourceMessage) {
			queue.push({event: message.event, data: message.data, id: message.id});
		},
	});
	const decoder = new TextDecoder();
	for await (const chunk of chunks) {
		parser.feed(typeof chunk === 'string' ? chunk : decoder.decode(chunk, {stream: true}));
		while (queue.length > 0) yield queue.shift()!;
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
