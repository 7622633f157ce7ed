/**
 * The last test of each channel (`channels test`, the TUI's `t`): when it ran, against which version
 * of the channel, and what it found — kept in the meta namespace as `test:<channel id>`, so a TUI
 * started tomorrow, another TUI on the same store and `channels show` say what the last test found
 * instead of "not tested". A result's texts are the ones shown (a provider's error already has the
 * channel's key masked). Not a record any version must read: one that cannot be read is left out.
 */
import * as z from 'zod/mini';
import type {ProbeResult} from '../base/probe-result.js';
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
});

/** A channel's last test as stored. */
export type StoredTest = {readonly at: string; readonly channelUpdatedAt: string; readonly result: ProbeResult};

const prefix = 'test:';
const tests = (store: Store) => store.collection('meta', testSchema, 'channel test');
const keyOf = (channelId: string) => `${prefix}${channelId}`;
/** Whether a meta entry is a channel's last test. */
export const isChannelTestKey = (id: string) => id.startsWith(prefix);

export async function saveChannelTest(store: Store, channel: ChannelRecord, result: ProbeResult, at = new Date()): Promise<void> {
	await tests(store).set(keyOf(channel.id), {v: 1, at: at.toISOString(), channelUpdatedAt: channel.updatedAt, result});
}

/** Channel id → its last test; a record this version cannot read is left out. */
export async function readChannelTests(store: Store): Promise<Map<string, StoredTest>> {
	return new Map((await tests(store).entries(prefix, {skipInvalid: true})).map(([id, {at, channelUpdatedAt, result}]) => [id.slice(prefix.length), {at, channelUpdatedAt, result}]));
}

export async function readChannelTest(store: Store, channelId: string): Promise<StoredTest | undefined> {
	const stored = await tests(store)
		.get(keyOf(channelId))
		.catch((error: unknown) => {
			if (error instanceof InvalidRecordError) return undefined;
			throw error;
		});
	return stored && {at: stored.at, channelUpdatedAt: stored.channelUpdatedAt, result: stored.result};
}

/** Forget a removed channel's last test. */
export async function deleteChannelTest(store: Store, channelId: string): Promise<void> {
	await tests(store).delete(keyOf(channelId));
}
