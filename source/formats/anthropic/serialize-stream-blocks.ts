/**
 * Anthropic streams have one open content block at a time, numbered in the order blocks start.
 * The IR may interleave blocks (parallel OpenAI tool calls stream their arguments side by side), so
 * this reorders IR events: the first block to start stays live, a later block's events wait until
 * the blocks before it end. The live block is never delayed, so text is written as it arrives.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
import type {IRStreamEvent} from '../../base/ir.js';

type BlockEvent = Extract<IRStreamEvent, {index: number}>;
type Waiting = {readonly index: number; readonly events: BlockEvent[]; ended: boolean};

function isBlockEvent(event: IRStreamEvent): event is BlockEvent {
	return 'index' in event;
}

export async function* serializeStreamBlocks(events: AsyncIterable<IRStreamEvent>): AsyncGenerator<IRStreamEvent> {
	let live: number | undefined;
	const waiting: Waiting[] = [];
	for await (const event of events) {
		if (!isBlockEvent(event)) {
			if (event.type === 'finish') yield* closeAll(live, waiting);
			yield event;
			if (event.type === 'finish' || event.type === 'error') return;
			continue;
		}
		if (live === undefined && event.type === 'block-start') live = event.index;
		if (event.index === live) {
			yield event;
			if (event.type !== 'block-end') continue;
			live = undefined;
			// Blocks that waited now come out in start order, until one that is still streaming.
			while (live === undefined && waiting.length > 0) {
				const next = waiting.shift()!;
				yield* next.events;
				if (!next.ended) live = next.index;
			}
			continue;
		}
		wait(waiting, event);
	}
}

function wait(waiting: Waiting[], event: BlockEvent): void {
	let entry = waiting.find(item => item.index === event.index);
	if (!entry) {
		entry = {index: event.index, events: [], ended: false};
		waiting.push(entry);
	}
	entry.events.push(event);
	if (event.type === 'block-end') entry.ended = true;
}

/** At the finish, whatever is still open or waiting is written out and closed. */
function* closeAll(live: number | undefined, waiting: readonly Waiting[]): Generator<IRStreamEvent> {
	if (live !== undefined) yield {type: 'block-end', index: live};
	for (const entry of waiting) {
		yield* entry.events;
		if (!entry.ended) yield {type: 'block-end', index: entry.index};
	}
}
