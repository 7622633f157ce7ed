/**
 * Anthropic messages over HTTP: POST /v1/messages and /v1/messages/count_tokens (`?beta=true`,
 * which the SDK's beta client and Claude Code add, is ignored), GET /v1/models in Anthropic's list
 * shape when the request looks like an Anthropic client.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type {JsonObject} from '../../base/ir.js';
import type {InboundAdapter, ListedModels, ModelEntry, ModelListCall, Operation, WireRequest} from '../adapter.js';
import {asArray, asObject, asString, idField, listedIds} from '../wire.js';
import {readBearer, readHeader, requireModel, sseContentType} from '../http.js';
import {sseFrame} from '../sse.js';
import {renderAnthropicError} from './errors.js';

export const defaultAnthropicVersion = '2023-06-01';

/** Headers an Anthropic client sends that its provider must see as they are (never to other formats). */
const forwarded = ['anthropic-version', 'anthropic-beta'] as const;

const looksAnthropic = (request: WireRequest) => request.headers['anthropic-version'] !== undefined || request.headers['x-api-key'] !== undefined;

const encodeAnthropicModel = ({id, channel}: ModelEntry): JsonObject => ({type: 'model', id, display_name: id, created_at: channel.createdAt});

/** Anthropic has no embeddings API: only these two operations have a path. */
const paths: Readonly<Record<Exclude<Operation, 'embed'>, string>> = {generate: '/v1/messages', count_tokens: '/v1/messages/count_tokens'};

function callRoute(operation: Exclude<Operation, 'embed'>) {
	return {
		kind: 'call',
		method: 'POST',
		url: paths[operation],
		read: (_request: WireRequest, body: JsonObject) => ({operation, model: requireModel(body), stream: operation === 'generate' && body.stream === true, sse: true}),
	} as const;
}

export const anthropicHttp = {
	routes: [
		callRoute('generate'),
		callRoute('count_tokens'),
		{kind: 'models', method: 'GET', url: '/v1/models', claims: looksAnthropic},
		{kind: 'model', method: 'GET', url: '/v1/models/:id', id: request => request.params.id ?? '', claims: looksAnthropic},
	],
	ownsPath: request => request.url.startsWith('/v1/messages') || request.headers['anthropic-version'] !== undefined,
	// ANTHROPIC_API_KEY arrives as x-api-key, ANTHROPIC_AUTH_TOKEN as a bearer token.
	presentedKey: request => readHeader(request, 'x-api-key') ?? readBearer(request),
	affinity: channel => (channel.format === 'anthropic' ? 2 : 0),
	passthrough(body, {call, upstreamModel, headers}) {
		const out: Record<string, string> = {};
		for (const name of forwarded) {
			const value = readHeader({headers}, name);
			if (value) out[name] = value;
		}
		const path = paths[call.operation === 'count_tokens' ? 'count_tokens' : 'generate'];
		return body.model === upstreamModel ? {path, body, headers: out, verbatim: ['model', 'stream']} : {path, body: {...body, model: upstreamModel}, headers: out};
	},
	encodeModelList(models) {
		const data = models.map(encodeAnthropicModel);
		return {data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null};
	},
	encodeModel: encodeAnthropicModel,
	renderStreamError: error => sseFrame(JSON.stringify(renderAnthropicError(error).body), 'error'),
	streamContentType: () => sseContentType,
	upstreamHeaders: (apiKey: string | null): Record<string, string> => ({'anthropic-version': defaultAnthropicVersion, ...(apiKey ? {'x-api-key': apiKey} : {})}),
	// 20 a page unless asked (at most 1000); active and deprecated models, each with its lifecycle.
	modelList: {path: '/v1/models', query: {limit: '1000'}, read: readAnthropicModelList, readOne: body => readAnthropicModelList({data: [body], has_more: false})},
} satisfies Partial<InboundAdapter> & {upstreamHeaders(apiKey: string | null): Record<string, string>; modelList: ModelListCall};

function readAnthropicModelList(body: unknown): ListedModels {
	const list = asObject(body);
	const data = asArray(list?.data) ?? [];
	const deprecated = new Map<string, string | null>();
	for (const item of data) {
		const model = asObject(item);
		const id = asString(model?.id);
		if (id !== undefined && model?.lifecycle === 'deprecated') deprecated.set(id, asString(model.retires_at) ?? null);
	}
	return {...listedIds(asArray(list?.data), idField, list?.has_more === false), deprecated};
}
