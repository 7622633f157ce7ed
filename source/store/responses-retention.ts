/**
 * How long and how much of the stored Responses conversations is kept. Set with environment
 * variables (read when the gateway starts), like the usage retention:
 *
 *   GATEWAY_TUI_KEEP_RESPONSES_DAYS  default 30    a conversation is removed N days after its last turn
 *   GATEWAY_TUI_KEEP_RESPONSES_MB    default 1024  past this size, the conversations whose last turn is oldest go first
 *
 * A conversation (a response and every response continuing it) is kept or removed as a whole, so a
 * chain never loses its beginning while its end is still there.
 */
import {UserError} from '../base/errors.js';
import type {StoredTurnIndex} from './responses.js';

export type ResponsesRetention = {readonly maxDays: number; readonly maxBytes: number};

export const defaultResponsesRetention: ResponsesRetention = {maxDays: 30, maxBytes: 1024 * 1024 * 1024};

const variables = {maxDays: 'GATEWAY_TUI_KEEP_RESPONSES_DAYS', maxMegabytes: 'GATEWAY_TUI_KEEP_RESPONSES_MB'} as const;

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
	const text = env[name]?.trim();
	if (!text) return fallback;
	if (!/^\d+$/.test(text) || Number(text) < 1) throw new UserError(`${name}="${text}" is not a whole number above 0: set it to e.g. ${fallback}, or unset it for the default.`);
	return Number(text);
}

export function responsesRetentionFromEnv(env: NodeJS.ProcessEnv = process.env): ResponsesRetention {
	return {
		maxDays: wholeNumber(env, variables.maxDays, defaultResponsesRetention.maxDays),
		maxBytes: wholeNumber(env, variables.maxMegabytes, defaultResponsesRetention.maxBytes / 1024 / 1024) * 1024 * 1024,
	};
}

type Conversation = {readonly root: string; last: number; bytes: number; readonly ids: string[]};

function conversations(index: readonly StoredTurnIndex[]): Conversation[] {
	const byRoot = new Map<string, Conversation>();
	for (const entry of index) {
		const conversation = byRoot.get(entry.root) ?? {root: entry.root, last: 0, bytes: 0, ids: []};
		conversation.last = Math.max(conversation.last, entry.createdAt);
		conversation.bytes += entry.bytes;
		conversation.ids.push(entry.id);
		byRoot.set(entry.root, conversation);
	}
	return [...byRoot.values()];
}

/** What to remove: conversations idle past retention, then, newest first, every one past the size cap. And the bytes that stay. */
export function planResponsesPrune(index: readonly StoredTurnIndex[], retention: ResponsesRetention, now: number): {readonly doomed: readonly string[]; readonly keptBytes: number} {
	const oldest = now - retention.maxDays * 86_400_000;
	const doomed: string[] = [];
	let keptBytes = 0;
	let full = false;
	for (const conversation of conversations(index).sort((a, b) => b.last - a.last)) {
		// Sorted newest first: once one conversation is past retention or over the cap, so is every older one.
		full ||= conversation.last < oldest || keptBytes + conversation.bytes > retention.maxBytes;
		if (full) doomed.push(...conversation.ids);
		else keptBytes += conversation.bytes;
	}
	return {doomed, keptBytes};
}
