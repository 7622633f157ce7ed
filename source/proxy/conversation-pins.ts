/**
 * A conversation stays on the channel that served its previous turn while that channel is healthy:
 * round-robin per request would send consecutive turns of one Claude Code or Codex session to
 * different accounts, and every provider's prompt cache would miss. Bounded in memory (the oldest
 * pin goes first) with an idle expiry; failover still moves a conversation when its channel fails.
 */
import {hash as digest} from 'node:crypto';
import type {JsonObject, JsonValue} from '../base/ir.js';
import type {WireRequest} from '../formats/adapter.js';
import type {ConversationState} from '../base/events.js';

/** Session headers real clients send, most specific first (Claude Code ≥ 2.1.86, Codex, others). */
const sessionHeaders = ['x-claude-code-session-id', 'session-id', 'session_id', 'x-session-id', 'x-session-affinity'] as const;

export type PinState = ConversationState;

const hash = (text: string) => digest('sha256', text, 'base64url').slice(0, 16);

function header(headers: WireRequest['headers'], name: string): string | undefined {
	const value = headers[name];
	const first = Array.isArray(value) ? value[0] : value;
	return first && first.length <= 200 ? first : undefined;
}

/** Claude Code's `metadata.user_id`: a JSON string with `session_id`, or the legacy `…_session_<uuid>`. */
function metadataSession(body: JsonObject): string | undefined {
	const metadata = body.metadata;
	const userId = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? metadata.user_id : undefined;
	if (typeof userId !== 'string') return undefined;
	const legacy = /_session_([0-9a-f-]{36})$/.exec(userId);
	if (legacy) return legacy[1];
	try {
		const parsed = JSON.parse(userId) as {session_id?: unknown};
		return typeof parsed.session_id === 'string' ? parsed.session_id : undefined;
	} catch {
		return undefined;
	}
}

/** The first element of the body's turn list, whichever field the format keeps it in. */
function firstTurn(body: JsonObject): JsonValue | undefined {
	for (const field of ['messages', 'contents', 'input']) {
		const list = body[field];
		if (Array.isArray(list)) return list[0];
		if (typeof list === 'string') return list;
	}
	return undefined;
}

/**
 * A stable key for the conversation a request belongs to: the client's own session id where it
 * sends one, else a hash of what stays the same across its turns (system prompt, tools, first turn).
 * Scoped to the virtual key, so two users never share a pin.
 */
export function conversationKey(keyId: string, headers: WireRequest['headers'], body: JsonObject): string {
	for (const name of sessionHeaders) {
		const value = header(headers, name);
		if (value) return `${keyId}:h:${hash(value)}`;
	}
	const session = metadataSession(body) ?? (typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : undefined);
	if (session) return `${keyId}:s:${hash(session)}`;
	const stable = [body.system ?? body.systemInstruction ?? body.instructions ?? null, body.tools ?? null, firstTurn(body) ?? null];
	return `${keyId}:c:${hash(JSON.stringify(stable))}`;
}

type Pin = {channelId: string; usedAt: number};

export class ConversationPins {
	private readonly pins = new Map<string, Pin>();

	constructor(
		private readonly now: () => number = Date.now,
		private readonly capacity = 20_000,
		private readonly idleMs = 60 * 60_000,
	) {}

	/** The channel that served this conversation's last turn, if it is still fresh. */
	pinned(key: string): string | undefined {
		const pin = this.pins.get(key);
		if (!pin) return undefined;
		if (this.now() - pin.usedAt > this.idleMs) {
			this.pins.delete(key);
			return undefined;
		}
		return pin.channelId;
	}

	/** Record which channel served a turn; says whether the conversation was new, stayed, or moved. */
	served(key: string, channelId: string): PinState {
		const before = this.pinned(key);
		this.pins.delete(key);
		this.pins.set(key, {channelId, usedAt: this.now()});
		if (this.pins.size > this.capacity) this.pins.delete(this.pins.keys().next().value!);
		return before === undefined ? 'new' : before === channelId ? 'pinned' : 'moved';
	}

	get size(): number {
		return this.pins.size;
	}
}
