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

/** One IR event in, the events to write now out, in order (none while its block waits). */
export class BlockSerializer {
	private live: number | undefined;
	private readonly waiting: Waiting[] = [];

	push(event: IRStreamEvent): IRStreamEvent[] {
		if (!isBlockEvent(event)) {
			if (event.type !== 'finish') return [event];
			const out = closeAll(this.live, this.waiting);
			out.push(event);
			return out;
		}
		if (this.live === undefined && event.type === 'block-start') this.live = event.index;
		if (event.index !== this.live) {
			wait(this.waiting, event);
			return [];
		}
		if (event.type !== 'block-end') return [event];
		const out: IRStreamEvent[] = [event];
		this.live = undefined;
		// Blocks that waited now come out in start order, until one that is still streaming.
		while (this.live === undefined && this.waiting.length > 0) {
			const next = this.waiting.shift()!;
			for (const waited of next.events) out.push(waited);
			if (!next.ended) this.live = next.index;
		}
		return out;
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
function closeAll(live: number | undefined, waiting: readonly Waiting[]): IRStreamEvent[] {
	const out: IRStreamEvent[] = [];
	if (live !== undefined) out.push({type: 'block-end', index: live});
	for (const entry of waiting) {
		for (const event of entry.events) out.push(event);
		if (!entry.ended) out.push({type: 'block-end', index: entry.index});
	}
	return out;
}
