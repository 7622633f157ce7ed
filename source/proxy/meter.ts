/**
 * Reads token usage on the side: the relay forwards bytes to the client untouched and pushes a copy
 * here, where the channel format's own stream decoder turns it into IR events. Failures here never
 * affect the client's answer; they become a warning on the request log.
 */
import type {InboundAdapter, TranslationContext} from '../formats/adapter.js';
import type {IRStreamEvent, IRUsage} from '../base/ir.js';
import {parseSse, type SseMessage} from '../formats/sse.js';
import {Pipe, jsonArrayElements} from './pipe.js';

export type StreamFraming = 'sse' | 'json-array';

export function mergeUsage(into: IRUsage | null, part: Partial<IRUsage>): IRUsage {
	const merged: Record<string, number | boolean> = {inputTokens: 0, outputTokens: 0, ...into};
	// Only the fields `part` has a value for (a stream's usage events carry some fields each); no entry arrays per event.
	for (const name in part) {
		const value = part[name as keyof IRUsage];
		if (value !== undefined) merged[name] = value;
	}
	return merged as IRUsage;
}

/** Follow IR stream events: keep the latest usage (cumulative, as every format reports it) and note a stream error. */
export async function collectUsage(events: AsyncIterable<IRStreamEvent>, onUsage: (usage: IRUsage) => void, onError: (message: string) => void = () => {}): Promise<void> {
	let usage: IRUsage | null = null;
	for await (const event of events) {
		if (event.type === 'error') onError(event.error.message);
		if (event.type === 'usage' || event.type === 'start') {
			if (event.usage) usage = mergeUsage(usage, event.usage);
		} else if (event.type === 'finish') {
			usage = mergeUsage(usage, event.usage);
		}
		if (usage) onUsage(usage);
	}
}

/**
 * How the stream ended, as its own decoder saw it: complete (its finish event), an error frame the
 * provider sent, or cut off (the decoder reached the end of the bytes without either). Null while
 * running, or when the decoder itself failed (then nothing is known).
 */
export type StreamEnding = 'complete' | 'upstream-error' | 'cut-off' | null;

export class StreamMeter {
	private readonly bytes = new Pipe<Uint8Array>();
	private readonly messages = new Pipe<SseMessage>();
	private inputDone = false;
	ending: StreamEnding = null;
	readonly done: Promise<void>;

	constructor(wire: Pick<InboundAdapter, 'decodeStream'>, framing: StreamFraming | 'messages', ctx: TranslationContext, on: {usage(usage: IRUsage): void; error(message: string): void}) {
		const source: AsyncIterable<SseMessage> = this.noteEnd(
			framing === 'messages' ? this.messages : framing === 'sse' ? parseSse(this.bytes) : wrapElements(jsonArrayElements(this.bytes)),
		);
		const onError = (message: string) => {
			// The decoders report a stream that ends without its terminal event as an error after their input ran out.
			this.ending ??= this.inputDone ? 'cut-off' : 'upstream-error';
			on.error(message);
		};
		const events = this.noteFinish(wire.decodeStream(source, ctx));
		this.done = collectUsage(events, on.usage, onError).catch((error: unknown) => {
			ctx.warn(`usage could not be read from the stream (${(error as Error).message})`);
			this.bytes.end();
			this.messages.end();
		});
	}

	private async *noteEnd(source: AsyncIterable<SseMessage>): AsyncGenerator<SseMessage> {
		yield* source;
		this.inputDone = true;
	}

	private async *noteFinish(events: AsyncIterable<IRStreamEvent>): AsyncGenerator<IRStreamEvent> {
		for await (const event of events) {
			if (event.type === 'finish') this.ending ??= 'complete';
			yield event;
		}
	}

	pushBytes(chunk: Uint8Array): void {
		this.bytes.push(chunk);
	}

	pushMessage(message: SseMessage): void {
		this.messages.push(message);
	}

	end(): void {
		this.bytes.end();
		this.messages.end();
	}
}

async function* wrapElements(elements: AsyncIterable<string>): AsyncGenerator<SseMessage> {
	for await (const data of elements) yield {data};
}
