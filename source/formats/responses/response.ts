/**
 * Non-streaming Responses answers: upstream wire → IR (to meter a passed-through answer), and IR →
 * the Response object a client expects.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import {GatewayError} from '../../base/errors.js';
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import type {IRResponse, JsonObject} from '../../base/ir.js';
import {unwrapSignature} from '../signature.js';
import {echoRequest, encodeResponseObject} from './encode-response-object.js';
import {namespacedName, toolKinds} from './decode-responses-tools.js';
import {decodeResponsesUsage, encodeResponsesUsage} from './map-responses-usage.js';
import {encodeResponsesOutput} from './encode-responses-output.js';
import {decodeResponsesError} from './errors.js';
import {toResponseId} from './ids.js';
import {mapResponsesStatus, toResponsesOutcome} from './map-responses-status.js';
import {isWireObject, asString, asObject, asArray, argumentsText, type WireObject} from '../wire.js';

type ResponsePart = IRResponse['parts'][number];

const texts = (item: WireObject, key: string, type: string): string[] =>
	(asArray(item[key]) ?? []).flatMap(part => (isWireObject(part) && part.type === type && typeof part.text === 'string' ? [part.text] : []));

/** One output item → IR parts; `refused` when the message is a refusal. Items of hosted tools carry nothing to translate. */
function decodeItem(item: WireObject): {parts: ResponsePart[]; refused: boolean} {
	switch (item.type) {
		case 'message': {
			const refusals = (asArray(item.content) ?? []).flatMap(part => (isWireObject(part) && part.type === 'refusal' && typeof part.refusal === 'string' ? [part.refusal] : []));
			const text = [...texts(item, 'content', 'output_text'), ...refusals].join('');
			return {parts: text ? [{type: 'text', text}] : [], refused: refusals.length > 0};
		}
		case 'reasoning': {
			const raw = texts(item, 'content', 'reasoning_text');
			const encrypted = asString(item.encrypted_content);
			const text = (raw.length > 0 ? raw : texts(item, 'summary', 'summary_text')).join('\n\n');
			return {parts: [{type: 'reasoning', text, ...(encrypted ? {signature: unwrapSignature(encrypted, 'openai')} : {})}], refused: false};
		}
		case 'function_call':
		case 'custom_tool_call': {
			const name = namespacedName(asString(item.namespace), asString(item.name) ?? '');
			const args = item.type === 'function_call' ? argumentsText(item.arguments) : JSON.stringify({input: asString(item.input) ?? ''});
			return {parts: [{type: 'tool_call', id: asString(item.call_id) ?? '', name, arguments: args}], refused: false};
		}
		default:
			return {parts: [], refused: false};
	}
}

/** Upstream Response object → IR. A `failed` response (or an `error` in a 200 answer) is an error. */
export function decodeResponsesResponse(body: unknown): IRResponse {
	if (!isWireObject(body)) throw new GatewayError('upstream', 502, 'The Responses upstream answered with something that is not a JSON object.');
	const error = asObject(body.error);
	if (error || body.status === 'failed') throw GatewayError.from(decodeResponsesError(200, {error: error ?? {message: 'The upstream response failed.'}}));
	const decoded = (asArray(body.output) ?? []).filter(isWireObject).map(decodeItem);
	const parts = decoded.flatMap(item => item.parts);
	const reason = mapResponsesStatus(body.status, asObject(body.incomplete_details)?.reason, parts.some(part => part.type === 'tool_call'));
	return {
		id: asString(body.id) ?? '',
		model: asString(body.model) ?? '',
		parts,
		finishReason: decoded.some(item => item.refused) && reason === 'stop' ? 'refusal' : reason,
		usage: decodeResponsesUsage(asObject(body.usage)),
	};
}

/** IR → the Response object a Responses client expects, shaped like the real API's. */
export function encodeResponsesResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonObject {
	const base = {id: toResponseId(response.id), createdAt: Math.floor(Date.now() / 1000), model: options.model, echo: echoRequest(options.request)};
	const {status, incompleteDetails} = toResponsesOutcome(response.finishReason);
	const output = encodeResponsesOutput(response.parts, toolKinds(options.request), ctx);
	return encodeResponseObject(base, {status, output, usage: encodeResponsesUsage(response.usage), incompleteDetails});
}
