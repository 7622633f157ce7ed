/**
 * The gateway's stored Responses conversations at run time: answers to keep wait in memory (where
 * an immediate follow-up finds them) and are written in batches shortly after, never on the request
 * path; reads look in memory first, then in the store. A timer (unref'd, on the gateway's clock)
 * removes conversations past retention or over the size cap; a flush that takes the store over the
 * cap starts one at once.
 */
import type {Clock} from '../base/clock.js';
import type {EventBus} from '../base/events.js';
import type {Store} from '../store/index.js';
import {deleteTurns, listTurnIndex, readTurns, writeTurns, type StoredTurn} from '../store/responses.js';
import {planResponsesPrune, type ResponsesRetention} from '../store/responses-retention.js';

export type KeptResponsesOptions = ResponsesRetention & {
	readonly clock: Clock;
	readonly events?: EventBus;
	/** How often retention runs (default hourly). */
	readonly sweepEveryMs?: number;
	/** How long a kept answer waits in memory for others to share its write (default 200 ms). */
	readonly flushAfterMs?: number;
};

/** A conversation up to the response asked for (oldest first), or the id of its first missing link. */
export type Conversation = {readonly turns: readonly StoredTurn[]} | {readonly missing: string};

/** Answers waiting for their write past this many are dropped, oldest first (the store is down). */
const maxPending = 10_000;

export class KeptResponses {
	private readonly pending = new Map<string, StoredTurn>();
	private timer: NodeJS.Timeout | undefined;
	private flushing: Promise<void> = Promise.resolve();
	private sweeping: Promise<void> | undefined;
	/** The store's size as of the last sweep, plus what was written since. */
	private bytes = 0;
	private stopSweeps: (() => void) | undefined;
	private closed = false;

	constructor(
		private readonly store: Store,
		readonly options: KeptResponsesOptions,
	) {}

	/** Start the retention timer, and one sweep now (it also learns the store's size). */
	start(): void {
		this.stopSweeps = this.options.clock.every(this.options.sweepEveryMs ?? 3_600_000, () => this.sweep());
		void this.sweep();
	}

	/** Keep a finished answer: in memory now, in the store within a moment. */
	keep(turn: StoredTurn): void {
		if (this.closed) return;
		this.pending.set(turn.id, turn);
		if (this.pending.size > maxPending) this.pending.delete(this.pending.keys().next().value!);
		this.timer ??= setTimeout(() => void this.flush(), this.options.flushAfterMs ?? 200).unref();
	}

	/** The turn kept under `id` for this key; another key's is as missing as one never kept. */
	async find(keyId: string, id: string): Promise<StoredTurn | undefined> {
		const turn = this.pending.get(id) ?? (await readTurns(this.store, [id]))[0];
		return turn?.keyId === keyId ? turn : undefined;
	}

	/** The conversation ending with `id`, oldest turn first; undefined when `id` is not this key's. */
	async conversation(keyId: string, id: string): Promise<Conversation | undefined> {
		const last = await this.find(keyId, id);
		if (!last) return undefined;
		const lookup = async (links: readonly string[]) => new Map((await readTurns(this.store, links)).flatMap(turn => (turn ? [[turn.id, turn] as const] : [])));
		const unfound = (found: ReadonlyMap<string, StoredTurn>) => last.chain.filter(link => !this.pending.has(link) && !found.has(link));
		let read = await lookup(unfound(new Map()));
		// A turn written (and so let go from memory) while the others were read: once more from the store.
		const late = unfound(read);
		if (late.length > 0) read = new Map([...read, ...(await lookup(late))]);
		const turns: StoredTurn[] = [];
		for (const link of last.chain) {
			const turn = this.pending.get(link) ?? read.get(link);
			if (turn?.keyId !== keyId) return {missing: link};
			turns.push(turn);
		}
		return {turns: [...turns, last]};
	}

	/** Delete a kept response of this key; false when there is none. */
	async remove(keyId: string, id: string): Promise<boolean> {
		if (!(await this.find(keyId, id))) return false;
		this.pending.delete(id);
		// A write of it already under way must land before the delete, or it would bring it back.
		await this.flushing;
		await deleteTurns(this.store, [id]);
		return true;
	}

	/** Write what waits in memory, after any write under way; on a failure it stays there for the next try. */
	flush(): Promise<void> {
		clearTimeout(this.timer);
		this.timer = undefined;
		this.flushing = this.flushing.then(() => this.write());
		return this.flushing;
	}

	private async write(): Promise<void> {
		const batch = [...this.pending.values()];
		if (batch.length === 0) return;
		try {
			const written = await writeTurns(this.store, batch);
			for (const turn of batch) if (this.pending.get(turn.id) === turn) this.pending.delete(turn.id);
			this.bytes += written.reduce((sum, entry) => sum + entry.bytes, 0);
		} catch (error) {
			this.warn(`Stored Responses conversations could not be written (${(error as Error).message}); retrying in a few seconds.`);
			if (!this.closed) this.timer ??= setTimeout(() => void this.flush(), 5_000).unref();
			return;
		}
		if (this.bytes > this.options.maxBytes && !this.closed) void this.sweep();
	}

	/** Remove the conversations past retention or over the size cap (after writing what waits). */
	sweep(): Promise<void> {
		this.sweeping ??= this.flush()
			.then(async () => {
				const {doomed, keptBytes} = planResponsesPrune(await listTurnIndex(this.store), this.options, this.options.clock.now());
				if (doomed.length > 0) await deleteTurns(this.store, doomed);
				this.bytes = keptBytes;
			})
			.catch((error: unknown) => this.warn(`Old stored Responses conversations could not be removed (${(error as Error).message}); retrying within the hour.`))
			.finally(() => (this.sweeping = undefined));
		return this.sweeping;
	}

	/** Write what waits, stop the timers; the store stays open (its owner closes it). */
	async close(): Promise<void> {
		this.stopSweeps?.();
		this.closed = true;
		await this.sweeping;
		await this.flush();
		clearTimeout(this.timer);
	}

	private warn(message: string): void {
		this.options.events?.emit('warning', {message});
	}
}
