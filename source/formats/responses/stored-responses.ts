/**
 * Stored Responses conversations, the format's side: what a request asks of the store (`store`,
 * `previous_response_id`), the conversation put back in front of a continuing request's input, the
 * input items kept (with ids, as the API lists them), and the answers of
 * `GET /v1/responses/{id}`, `GET /v1/responses/{id}/input_items` and `DELETE /v1/responses/{id}`.
 * `instructions` are never carried over: as the API documents, they apply to one response only.
 * @see https://platform.openai.com/docs/api-reference/responses/get
 * @see https://platform.openai.com/docs/api-reference/responses/input-items
 * @see https://platform.openai.com/docs/guides/conversation-state#passing-context-from-the-previous-response
 */
import {GatewayError, invalidRequest} from '../../base/errors.js';
import type {IRError, JsonObject, JsonValue} from '../../base/ir.js';
import type {EncodeResponseOptions, EncodeStreamOptions, InboundAdapter, KeptTurn, StoredAnswers, TranslationContext, WireRequest} from '../adapter.js';
import {isJsonObject} from '../wire.js';
import {newItemId, type ItemKind} from './ids.js';
import {encodeResponsesResponse} from './response.js';
import {encodeResponsesStream, responsesStreamEncoder} from './stream.js';

/** Nothing kept under this id for this key (another key's response included: it must look the same). */
export function responseNotFound(id: string, continuing: boolean): IRError {
	return continuing
		? new GatewayError('invalid_request', 400, `Previous response with id '${id}' not found. The gateway keeps a response (for the key that made it, until retention removes it) when it was sent with store true or absent to a translated channel; otherwise send the whole conversation in \`input\`.`, {code: 'previous_response_not_found', param: 'previous_response_id'})
		: new GatewayError('not_found', 404, `Response with id '${id}' not found. Only the key that created a response can read it, and only until retention removes it.`, {code: 'not_found', param: 'response_id'});
}

const itemKinds: Readonly<Record<string, ItemKind>> = {
	message: 'msg',
	function_call: 'fc',
	function_call_output: 'fco',
	custom_tool_call: 'ctc',
	custom_tool_call_output: 'ctco',
	local_shell_call: 'lsh',
	local_shell_call_output: 'lsho',
	reasoning: 'rs',
};

/** One input item as the API lists it: typed, a message's text as a content part, an id. */
function keptItem(item: JsonObject): JsonObject {
	const type = typeof item.type === 'string' ? item.type : 'message';
	const out: JsonObject = {...item, type};
	if (type === 'message' && typeof item.content === 'string') out.content = [{type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content}];
	if (type === 'message' && out.status === undefined) out.status = 'completed';
	if (typeof item.id !== 'string' || item.id === '') out.id = newItemId(itemKinds[type] ?? 'item');
	return out;
}

function keptInput(body: JsonObject): JsonObject[] {
	const {input} = body;
	if (typeof input === 'string') return input === '' ? [] : [keptItem({role: 'user', content: input})];
	return Array.isArray(input) ? input.filter(isJsonObject).map(keptItem) : [];
}

const outputOf = (response: JsonObject): JsonObject[] => (Array.isArray(response.output) ? response.output.filter(isJsonObject) : []);

/**
 * An item of the kept conversation as the next request's input: message and call ids and statuses
 * are the gateway's, meaningless to a provider, so they are left out. A reasoning item goes whole:
 * its `encrypted_content` carries the signature back to the provider that made it.
 */
function asInput(item: JsonObject): JsonObject {
	if (item.type === 'reasoning') return item;
	const {id: _id, status: _status, ...rest} = item;
	return rest;
}

function expand(body: JsonObject, earlier: readonly KeptTurn[]): JsonObject {
	const history = earlier.flatMap(turn => [...turn.input, ...outputOf(turn.response)]).map(asInput);
	const own: JsonValue[] = typeof body.input === 'string' ? [{role: 'user', content: body.input}] : Array.isArray(body.input) ? body.input : [];
	const {previous_response_id: _previous, ...rest} = body;
	return {...rest, input: [...history, ...own]};
}

/** Encoders echoing the client's own request (its `previous_response_id`; `store` true only when kept), handing each finished answer to `keep`. */
function answering(original: JsonObject, keep: ((turn: {readonly id: string; readonly response: JsonObject}) => void) | undefined): Pick<InboundAdapter, 'encodeResponse' | 'encodeStream'> & Required<Pick<InboundAdapter, 'streamEncoder'>> {
	const request = {...original, store: keep !== undefined};
	const kept = (response: JsonObject) => keep?.({id: String(response.id), response});
	return {
		encodeResponse: (response, options: EncodeResponseOptions, ctx: TranslationContext) => {
			const answer = encodeResponsesResponse(response, {...options, request}, ctx);
			kept(answer);
			return answer;
		},
		encodeStream: (events, options: EncodeStreamOptions, ctx: TranslationContext) => {
			return encodeResponsesStream(events, {...options, request}, ctx, keep ? kept : undefined);
		},
		streamEncoder: (options: EncodeStreamOptions, ctx: TranslationContext) => responsesStreamEncoder({...options, request}, ctx, keep ? kept : undefined),
	};
}

function renderRetrieved(turn: KeptTurn, request: WireRequest): JsonValue {
	if (String(request.query.stream) === 'true') throw invalidRequest('A stored response cannot be streamed again from this gateway: retrieve it without `stream=true`.', 'stream');
	return turn.response;
}

function listQuery(request: WireRequest): {order: 'asc' | 'desc'; limit: number; after?: string} {
	const {order = 'desc', limit = '20', after} = request.query;
	if (order !== 'asc' && order !== 'desc') throw invalidRequest('`order` must be "asc" or "desc".', 'order');
	const count = Number(limit);
	if (!Number.isInteger(count) || count < 1 || count > 100) throw invalidRequest('`limit` must be a whole number from 1 to 100.', 'limit');
	return {order, limit: count, ...(typeof after === 'string' && after !== '' ? {after} : {})};
}

/**
 * The items the asked response was generated from — the earlier turns' input and output, then its
 * own input — as a page of OpenAI's cursor list (newest first unless `order=asc`).
 */
function renderInputItems(turns: readonly KeptTurn[], request: WireRequest): JsonValue {
	const {order, limit, after} = listQuery(request);
	const last = turns.at(-1);
	const items = [...turns.slice(0, -1).flatMap(turn => [...turn.input, ...outputOf(turn.response)]), ...(last?.input ?? [])];
	if (order === 'desc') items.reverse();
	const start = after === undefined ? 0 : items.findIndex(item => item.id === after) + 1;
	if (start === 0 && after !== undefined) throw invalidRequest(`\`after\`: no input item with id '${after}' in this response.`, 'after');
	const data = items.slice(start, start + limit);
	return {object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < items.length};
}

export const responsesStoredAnswers: StoredAnswers = {
	readRequest: body => {
		const previous = body.previous_response_id;
		return {...(typeof previous === 'string' && previous !== '' ? {continues: previous} : {}), keep: body.store !== false};
	},
	expand,
	keptInput,
	answering,
	renderRetrieved,
	renderInputItems,
	renderDeleted: id => ({id, object: 'response', deleted: true}),
	notFound: responseNotFound,
};
