/**
 * The last test of each channel (`channels test`, the TUI's `t`): when it ran, against which version
 * of the channel, and what it found — kept in the meta namespace as `test:<channel id>`, so a TUI
 * started tomorrow, another TUI on the same store and `channels show` say what the last test found
 * instead of "not tested". A result's texts are the ones shown (a provider's error already has the
 * channel's key masked). Not a record any version must read: one that cannot be read is left out.
 * `serve --probe-every` keeps its checks here too (`by: 'probe'`), telling readers only when what a
 * check found differs from what was kept (see keepProbeRound).
 */
import * as z from 'zod/mini';
import type {ProbeResult, TestedBy} from '../base/probe-result.js';
import type {ChannelRecord} from '../base/records.js';
import type {Store} from './index.js';
import {InvalidRecordError} from './errors.js';

const resultSchema = z.union([
	z.object({
		ok: z.literal(true),
		latencyMs: z.number(),
		models: z.number(),
		unlisted: z.readonly(z.array(z.string())),
		retiring: z.readonly(z.array(z.object({model: z.string(), retiresAt: z.nullable(z.string())}))),
		alternatives: z.readonly(z.record(z.string(), z.readonly(z.array(z.string())))),
	}),
	z.object({ok: z.literal(false), latencyMs: z.number(), status: z.optional(z.number()), error: z.string()}),
]);

const testSchema = z.object({
	v: z.literal(1),
	/** When it ran (ISO). */
	at: z.string(),
	/** The channel's `updatedAt` then: a test of settings changed since says nothing of the new ones. */
	channelUpdatedAt: z.string(),
	result: resultSchema,
	/** Who ran it: absent for a test (`channels test`, the TUI's `t`), `probe` for the gateway's `--probe-every` check. */
	by: z.optional(z.literal('probe')),
});

/** A channel's last test as stored. */
export type StoredTest = {readonly at: string; readonly channelUpdatedAt: string; readonly result: ProbeResult; readonly by: TestedBy};

const prefix = 'test:';
const tests = (store: Store) => store.collection('meta', testSchema, 'channel test');
const keyOf = (channelId: string) => `${prefix}${channelId}`;
/** Whether a meta entry is a channel's last test. */
export const isChannelTestKey = (id: string) => id.startsWith(prefix);

export async function saveChannelTest(store: Store, channel: ChannelRecord, result: ProbeResult, at = new Date(), by: TestedBy = 'test'): Promise<void> {
	await tests(store).set(keyOf(channel.id), {v: 1, at: at.toISOString(), channelUpdatedAt: channel.updatedAt, result, ...(by === 'probe' ? {by} : {})});
	// A channel removed while its test ran: `channels remove` deletes the channel, then its test, so a
	// test written after that finds the channel gone here and goes too (nothing is left behind).
	if ((await store.raw('channels').get(channel.id)) === undefined) await deleteChannelTest(store, channel.id);
}

const stored = ({at, channelUpdatedAt, result, by}: z.infer<typeof testSchema>): StoredTest => ({at, channelUpdatedAt, result, by: by ?? 'test'});

/** Channel id → its last test; a record this version cannot read is left out. */
export async function readChannelTests(store: Store): Promise<Map<string, StoredTest>> {
	return new Map((await tests(store).entries(prefix, {skipInvalid: true})).map(([id, record]) => [id.slice(prefix.length), stored(record)]));
}

/** One round of the gateway's `--probe-every` checks: each enabled channel and what its check found. */
export type ProbeRound = readonly {readonly channel: ChannelRecord; readonly result: ProbeResult}[];

/** What a check found, without how long it took: two checks that found the same read the same. */
const finding = (result: ProbeResult) => JSON.stringify({...result, latencyMs: 0});

/**
 * Keep one round of the gateway's `--probe-every` checks as the channels' last tests. Readers (a TUI
 * elsewhere, the gateways' registries) are told through the revision only when a check found
 * something other than what was kept for the channel — a refusal, a model gone, the channel changed,
 * none kept yet — so channels checked every minute that stay as they were do not reload every
 * reader every minute; `channels show`, which reads the store, has each check's time. True: told.
 */
export async function keepProbeRound(store: Store, round: ProbeRound, at = new Date()): Promise<boolean> {
	if (round.length === 0) return false;
	const kept = await readChannelTests(store);
	const changed = round.some(({channel, result}) => {
		const before = kept.get(channel.id);
		return !before || before.channelUpdatedAt !== channel.updatedAt || finding(before.result) !== finding(result);
	});
	await Promise.all(round.map(({channel, result}) => saveChannelTest(store, channel, result, at, 'probe')));
	if (changed) await store.bumpRevision();
	return changed;
}

export async function readChannelTest(store: Store, channelId: string): Promise<StoredTest | undefined> {
	const record = await tests(store)
		.get(keyOf(channelId))
		.catch((error: unknown) => {
			if (error instanceof InvalidRecordError) return undefined;
			throw error;
		});
	return record && stored(record);
}

/** Forget a removed channel's last test. */
export async function deleteChannelTest(store: Store, channelId: string): Promise<void> {
	await tests(store).delete(keyOf(channelId));
}
