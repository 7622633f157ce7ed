/** One entity collection of the store: values are validated against a zod schema on every read. */
import type Keyv from 'keyv';
import {config, type ZodMiniType} from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import {InvalidRecordError, StoreError} from './errors.js';
import type {Sealer} from './sealing.js';

// The schemas use Zod's functional build (`zod/mini`: ~30 KB bundled against ~145 KB for the classic
// one, and every command loads it), which has no messages of its own ("Invalid input"): an invalid
// record's error quotes the English ones ("expected string, received number").
config(en());

/** Turns a driver's failure during `action` into a StoreError naming the store (see Store). */
export type FailureReport = (action: string, error: unknown) => StoreError;

/** String fields of a record sealed at rest (see sealing.ts), and the sealer that does it. */
export type Sealing = {readonly fields: readonly string[]; readonly sealer: () => Sealer};

export class Collection<T> {
	constructor(
		private readonly keyv: Keyv,
		private readonly schema: ZodMiniType<T>,
		private readonly what: string,
		private readonly fail: FailureReport,
		private readonly sealing?: Sealing,
		/** The command that removes an unreadable record of this collection, for the message about it. */
		private readonly removal?: (id: string) => string,
	) {}

	/** The record with its secret fields sealed (writing) or opened (reading). */
	private transform(value: unknown, direction: 'seal' | 'open'): unknown {
		if (!this.sealing || typeof value !== 'object' || value === null) return value;
		const sealer = this.sealing.sealer();
		const out: Record<string, unknown> = {...(value as Record<string, unknown>)};
		for (const field of this.sealing.fields) {
			const text = out[field];
			if (typeof text === 'string') out[field] = direction === 'seal' ? sealer.seal(text) : sealer.open(text);
		}
		return out;
	}

	private describe(id: string): string {
		return `${this.what} "${id}"`;
	}

	async get(id: string): Promise<T | undefined> {
		return this.parse(id, await this.guard(`reading ${this.describe(id)}`, () => this.keyv.get(id)));
	}

	async set(id: string, value: T): Promise<void> {
		const stored = this.transform(value, 'seal');
		await this.guard(`writing ${this.describe(id)}`, () => this.keyv.set(id, stored));
	}

	/**
	 * Several records in one write where the database can (one statement on sqlite and PostgreSQL, a
	 * MULTI on Redis): all of them or none. `what` names the batch in an error.
	 */
	async setMany(entries: ReadonlyArray<readonly [string, T]>, what: string): Promise<void> {
		if (entries.length === 0) return;
		const values = entries.map(([id, value]) => ({key: id, value: this.transform(value, 'seal')}));
		await this.guard(`writing ${what}`, () => this.keyv.setMany(values));
	}

	async delete(id: string): Promise<boolean> {
		return this.guard(`deleting ${this.describe(id)}`, () => this.keyv.delete(id));
	}

	/** Delete several records in one statement where the database can; true when any existed. */
	async deleteMany(ids: readonly string[], what: string): Promise<boolean> {
		if (ids.length === 0) return false;
		return this.guard(`deleting ${what}`, () => this.keyv.delete([...ids]));
	}

	/** Every valid entry; a failure part-way is an error, never a shorter list. */
	async list(): Promise<T[]> {
		return (await this.entries()).map(([, value]) => value);
	}

	/**
	 * Every valid entry with its id, in one pass over the namespace; given `prefix`, only those whose
	 * id starts with it (the others are not parsed). An invalid entry is an error, unless
	 * `skipInvalid` (records that only say something in passing, such as a gateway's published health).
	 */
	async entries(prefix?: string, {skipInvalid = false}: {readonly skipInvalid?: boolean} = {}): Promise<Array<[string, T]>> {
		const iterator = this.keyv.iterator;
		if (!iterator) return [];
		const entries = await this.guard(`listing every ${this.what}`, async () => {
			const out: Array<[string, unknown]> = [];
			for await (const [id, raw] of iterator(undefined)) out.push([String(id), raw]);
			return out;
		});
		const out: Array<[string, T]> = [];
		for (const [id, raw] of entries) {
			if (prefix !== undefined && !id.startsWith(prefix)) continue;
			try {
				const value = this.parse(id, raw);
				if (value !== undefined) out.push([id, value]);
			} catch (error) {
				if (!(skipInvalid && error instanceof InvalidRecordError)) throw error;
			}
		}
		return out;
	}

	private async guard<R>(action: string, run: () => Promise<R>): Promise<R> {
		try {
			return await run();
		} catch (error) {
			if (error instanceof StoreError) throw error;
			throw this.fail(action, error);
		}
	}

	private parse(id: string, raw: unknown): T | undefined {
		if (raw === undefined || raw === null) return undefined;
		const result = this.schema.safeParse(this.transform(raw, 'open'));
		if (!result.success) {
			const issue = result.error.issues[0];
			throw new InvalidRecordError(
				this.what,
				id,
				`${this.describe(id)} in the store is not valid (${issue?.path.join('.') || 'value'}: ${issue?.message}). ` +
					`It was written by a newer gateway-tui (upgrade this one) or edited by hand: restore a backup${this.removal ? `, or remove it with \`${this.removal(id)}\`` : ' or remove that entry'}.`,
			);
		}
		return result.data;
	}
}
