/**
 * Stored answers in the proxy, for a format that has them (the Responses API's `store` and
 * `previous_response_id`; see `StoredAnswers` in formats/adapter.ts):
 *
 * - before a request is routed, an answer it continues that the gateway kept is put back in front
 *   of its input, so any channel — of any format, a Responses-native one included — continues the
 *   conversation; an id the gateway never kept goes on as it is (only a Responses-native channel,
 *   where the provider keeps state, can take it; the others refuse it);
 * - a translated answer the client did not ask to forget is handed, once finished, to the
 *   gateway's KeptResponses (memory now, the store within a moment); a passed-through one is kept
 *   by its provider;
 * - the routes that read and delete what was kept, scoped to the key that made it.
 */
import {GatewayError} from '../base/errors.js';
import type {JsonObject, JsonValue} from '../base/ir.js';
import type {KeyRecord} from '../base/records.js';
import type {InboundAdapter, StoredAction, StoredAnswers, WireRequest} from '../formats/adapter.js';
import type {KeptResponses} from './kept-responses.js';
import {relay, type RelayDeps, type RelayInput, type RelayResult} from './relay.js';

export type StoringDeps = RelayDeps & {readonly kept: KeptResponses};

/**
 * Relay a request, continuing the conversation it names and keeping its answer where its format
 * asks. A format that stores nothing goes straight to `relay` (no async function between the two:
 * each one is a promise and a turn of the microtask queue per request).
 */
export function relayStoring(deps: StoringDeps, input: RelayInput): Promise<RelayResult> {
	const stored = input.inbound.storedAnswers;
	if (!stored || input.call.operation !== 'generate') return relay(deps, input);
	return relayKept(deps, input, stored);
}

async function relayKept(deps: StoringDeps, input: RelayInput, stored: StoredAnswers): Promise<RelayResult> {
	const {key} = input;
	const asks = stored.readRequest(input.body);
	let body = input.body;
	let chain: readonly string[] = [];
	if (asks.continues) {
		const found = await deps.kept.conversation(key.id, asks.continues);
		if (found && 'missing' in found) throw GatewayError.from(stored.notFound(asks.continues, true));
		if (found) {
			body = stored.expand(input.body, found.turns);
			chain = found.turns.map(turn => turn.id);
		}
	}
	if (!asks.keep && body === input.body) return relay(deps, input);
	const keep = asks.keep
		? (turn: {readonly id: string; readonly response: JsonObject}) =>
				deps.kept.keep({id: turn.id, keyId: key.id, createdAt: deps.kept.options.clock.now(), chain, input: stored.keptInput(input.body), response: turn.response})
		: undefined;
	// The encoders that keep the answer replace the format's own, the step form included (and the text form goes: it would not keep).
	const inbound: InboundAdapter = {...input.inbound, encodeResponseText: undefined, ...stored.answering(input.body, keep)};
	return relay(deps, {...input, inbound, body});
}

function notFound(stored: StoredAnswers | undefined, id: string): GatewayError {
	return stored ? GatewayError.from(stored.notFound(id, false)) : new GatewayError('not_found', 404, `Nothing is stored under "${id}".`, {code: 'not_found'});
}

/** GET or DELETE of a kept answer: only the key that made it sees it; for any other it does not exist. */
export async function answerStored(deps: StoringDeps, adapter: InboundAdapter, action: StoredAction, wire: WireRequest, key: KeyRecord): Promise<JsonValue> {
	const stored = adapter.storedAnswers;
	const id = wire.params.id ?? '';
	if (!stored) throw notFound(stored, id);
	switch (action) {
		case 'retrieve': {
			const turn = await deps.kept.find(key.id, id);
			if (!turn) throw notFound(stored, id);
			return stored.renderRetrieved(turn, wire);
		}
		case 'input_items': {
			const conversation = await deps.kept.conversation(key.id, id);
			if (!conversation || 'missing' in conversation) throw notFound(stored, id);
			return stored.renderInputItems(conversation.turns, wire);
		}
		case 'delete':
			if (!(await deps.kept.remove(key.id, id))) throw notFound(stored, id);
			return stored.renderDeleted(id);
	}
}
