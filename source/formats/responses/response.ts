/**
 * Non-streaming Responses answers: upstream wire → IR (to meter a passed-through answer), and IR →
 * the Response object a client expects.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
import {GatewayError} from '../../base/errors.js';
import type {EncodeResponseOptions, TranslationContext} from '../adapter.js';
import type {IRResponse, JsonObject} from '../../base/ir.js';
import {unwrapSignature} from '../signature.js';
import {echoRequest, responseObject} from './build-response-object.js';
import {namespacedName, toolKinds} from './convert-responses-tools.js';
import {convertResponsesUsage, toResponsesUsage} from './convert-responses-usage.js';
import {encodeResponsesOutput} from './encode-responses-output.js';
import {decodeResponsesError} from './errors.js';
import {toResponseId} from './ids.js';
import {mapResponsesStatus, toResponsesOutcome} from './map-responses-status.js';
import {argumentsText, arrayField, isObject, objectField, stringField, type WireObject} from './schema.js';

type ResponsePart = IRResponse['parts'][number];

const texts = (item: WireObject, key: string, type: string): string[] =>
	(arrayField(item, key) ?? []).flatMap(part => (isObject(part) && part.type === type && typeof part.text === 'string' ? [part.text] : []));

/** One output item → IR parts; `refused` when the message is a refusal. Items of hosted tools carry nothing to translate. */
function decodeItem(item: WireObject): {parts: ResponsePart[]; refused: boolean} {
	switch (item.type) {
		case 'message': {
			const refusals = (arrayField(item, 'content') ?? []).flatMap(part => (isObject(part) && part.type === 'refusal' && typeof part.refusal === 'string' ? [part.refusal] : []));
			const text = [...texts(item, 'content', 'output_text'), ...refusals].join('');
			return {parts: text ? [{type: 'text', text}] : [], refused: refusals.length > 0};
		}
		case 'reasoning': {
			const raw = texts(item, 'content', 'reasoning_text');
			const encrypted = stringField(item, 'encrypted_content');
			const text = (raw.length > 0 ? raw : texts(item, 'summary', 'summary_text')).join('\n\n');
			return {parts: [{type: 'reasoning', text, ...(encrypted ? {signature: unwrapSignature(encrypted, 'openai')} : {})}], refused: false};
		}
		case 'function_call':
		case 'custom_tool_call': {
			const name = namespacedName(stringField(item, 'namespace'), stringField(item, 'name') ?? '');
			const args = item.type === 'function_call' ? argumentsText(item.arguments) : JSON.stringify({input: stringField(item, 'input') ?? ''});
			return {parts: [{type: 'tool_call', id: stringField(item, 'call_id') ?? '', name, arguments: args}], refused: false};
		}
		default:
			return {parts: [], refused: false};
	}
}

/** Upstream Response object → IR. A `failed` response (or an `error` in a 200 answer) is an error. */
export function decodeResponsesResponse(body: unknown): IRResponse {
	if (!isObject(body)) throw new GatewayError('upstream', 502, 'The Responses upstream answered with something that is not a JSON object.');
	const error = objectField(body, 'error');
	if (error || body.status === 'failed') throw GatewayError.from(decodeResponsesError(200, {error: error ?? {message: 'The upstream response failed.'}}));
	const decoded = (arrayField(body, 'output') ?? []).filter(isObject).map(decodeItem);
	const parts = decoded.flatMap(item => item.parts);
	const reason = mapResponsesStatus(body.status, objectField(body, 'incomplete_details')?.reason, parts.some(part => part.type === 'tool_call'));
	return {
		id: stringField(body, 'id') ?? '',
		model: stringField(body, 'model') ?? '',
		parts,
		finishReason: decoded.some(item => item.refused) && reason === 'stop' ? 'refusal' : reason,
		usage: convertResponsesUsage(objectField(body, 'usage')),
	};
}

/** IR → the Response object a Responses client expects, shaped like the real API's. */
export function encodeResponsesResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonObject {
	const base = {id: toResponseId(response.id), createdAt: Math.floor(Date.now() / 1000), model: options.model, echo: echoRequest(options.request)};
	const {status, incompleteDetails} = toResponsesOutcome(response.finishReason);
	const output = encodeResponsesOutput(response.parts, toolKinds(options.request), ctx);
	return responseObject(base, {status, output, usage: toResponsesUsage(response.usage), incompleteDetails});
}
