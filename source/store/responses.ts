/**
 * Stored Responses conversations (`store: true` on /v1/responses served through translation): one
 * record per response and one small index entry beside it, in two namespaces of their own.
 *
 * - `responses:<id>` — who made it (the virtual key's id), when, the ids of the responses it
 *   continues (oldest first) and, sealed like every secret (see sealing.ts), its body: the input
 *   items the request added and the Response object as it was answered. Prompts and answers are
 *   the user's content: a copied store file or a dump of a shared Redis holds none of it.
 * - `response-index:<id>` — id, key, conversation (the first response of its chain), time and size:
 *   what retention and the size cap need, listed without reading (or unsealing) any body.
 *
 * Each response is written once, by the gateway that answered it, so several gateways share a store
 * without lost updates; deleting is idempotent. A body sealed with a master key this gateway no
 * longer has reads as missing, like an expired response.
 */
import * as z from 'zod/mini';
import type {JsonObject} from '../base/ir.js';
import {Collection} from './collection.js';
import type {Namespace, Store} from './index.js';
import type {Sealer} from './sealing.js';

/** A kept turn: the input items its request added, and the answer as the client got it. */
export type StoredTurn = {
	readonly id: string;
	readonly keyId: string;
	/** Milliseconds since the epoch, by the gateway's clock. */
	readonly createdAt: number;
	/** The responses this one continues, oldest first (empty for the first of a conversation). */
	readonly chain: readonly string[];
	readonly input: readonly JsonObject[];
	readonly response: JsonObject;
};

/** What retention and the size cap read: no content. */
export type StoredTurnIndex = {
	readonly id: string;
	readonly keyId: string;
	/** The first response of its conversation: a conversation is kept or removed as a whole. */
	readonly root: string;
	readonly createdAt: number;
	/** The stored size of the record, in bytes. */
	readonly bytes: number;
};

const recordSchema = z.object({
	v: z.literal(1),
	id: z.string().check(z.minLength(1)),
	keyId: z.string(),
	createdAt: z.number(),
	chain: z.array(z.string()),
	/** Sealed JSON of {input, response}. */
	body: z.string(),
});
type StoredRecord = z.infer<typeof recordSchema>;

const indexSchema = z.object({v: z.literal(1), id: z.string().check(z.minLength(1)), keyId: z.string(), root: z.string(), createdAt: z.number(), bytes: z.number().check(z.nonnegative())});

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const bodySchema = z.object({input: z.array(z.custom<JsonObject>(isObject)), response: z.custom<JsonObject>(isObject)});

const recordNamespace: Namespace = 'responses';
const indexNamespace: Namespace = 'response-index';

const report = (store: Store) => (action: string, error: unknown) => store.failure(action, error);
const records = (store: Store) => new Collection(store.raw(recordNamespace), recordSchema, 'stored response', report(store));
const indexEntries = (store: Store) => new Collection(store.raw(indexNamespace), indexSchema, 'stored response index entry', report(store));

/** Write turns (sealed); resolves once the store acknowledged them. Returns the bytes each took. */
export async function writeTurns(store: Store, turns: readonly StoredTurn[]): Promise<StoredTurnIndex[]> {
	const sealer = store.sealer();
	return Promise.all(
		turns.map(async turn => {
			const body = sealer.seal(JSON.stringify({input: turn.input, response: turn.response}));
			const record: StoredRecord = {v: 1, id: turn.id, keyId: turn.keyId, createdAt: turn.createdAt, chain: [...turn.chain], body};
			const entry: StoredTurnIndex = {id: turn.id, keyId: turn.keyId, root: turn.chain[0] ?? turn.id, createdAt: turn.createdAt, bytes: body.length + 200 + turn.chain.join().length};
			await records(store).set(turn.id, record);
			await indexEntries(store).set(turn.id, {v: 1, ...entry});
			return entry;
		}),
	);
}

function unseal(store: Store, record: StoredRecord): StoredTurn | undefined {
	let parsed: unknown;
	try {
		parsed = JSON.parse(store.sealer().open(record.body));
	} catch {
		return undefined;
	}
	const body = bodySchema.safeParse(parsed);
	if (!body.success) return undefined;
	return {id: record.id, keyId: record.keyId, createdAt: record.createdAt, chain: record.chain, input: body.data.input, response: body.data.response};
}

/** The turns with these ids, in the same order (undefined where there is none). */
export async function readTurns(store: Store, ids: readonly string[]): Promise<Array<StoredTurn | undefined>> {
	const collection = records(store);
	const found = await Promise.all(ids.map(id => collection.get(id)));
	return found.map(record => (record ? unseal(store, record) : undefined));
}

/** Remove turns and their index entries (a missing one is no error). */
export async function deleteTurns(store: Store, ids: Iterable<string>): Promise<void> {
	const collection = records(store);
	const index = indexEntries(store);
	await Promise.all([...ids].map(async id => {
		await collection.delete(id);
		await index.delete(id);
	}));
}

/** Every index entry: what retention and the size cap decide on. */
export async function listTurnIndex(store: Store): Promise<StoredTurnIndex[]> {
	return (await indexEntries(store).list()).map(({v: _v, ...entry}) => entry);
}

/**
 * Seal every stored body again under `to` (`store rotate-key`), a hundred at a time. A body `from`
 * cannot open was already unreadable (it reads as missing) and is left as it is. Returns how many
 * were resealed.
 */
export async function resealTurns(store: Store, from: Sealer, to: Sealer): Promise<number> {
	const collection = records(store);
	const ids = (await listTurnIndex(store)).map(entry => entry.id);
	let resealed = 0;
	for (let start = 0; start < ids.length; start += 100) {
		const batch = await Promise.all(ids.slice(start, start + 100).map(id => collection.get(id)));
		await Promise.all(
			batch.map(async record => {
				if (!record) return;
				let plain: string;
				try {
					plain = from.open(record.body);
				} catch {
					return;
				}
				await collection.set(record.id, {...record, body: to.seal(plain)});
				resealed++;
			}),
		);
	}
	return resealed;
}
