/**
 * OpenAI chat completions over HTTP: its routes, where its clients put the key, the request a
 * same-format channel gets, model lists, stream framing.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type {JsonObject} from '../../base/ir.js';
import {addedKeys, type InboundAdapter, type ModelEntry, type ModelListCall, type StreamHiding, type WireRequest} from '../adapter.js';
import {readBearer, readQuery, requireModel, sseContentType} from '../http.js';
import {sseFrame, type SseMessage} from '../sse.js';
import {asArray, asObject, idField, isWireObject, listedIds, parseJsonObject} from '../wire.js';
import {renderOpenAIError} from './errors.js';

const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const encodeOpenaiModel = ({id, channel}: ModelEntry) => ({id, object: 'model', created: epoch(channel.createdAt), owned_by: channel.name});

/**
 * Codex asks `GET /v1/models?client_version=…` for its catalog, `{"models": [ModelInfo…]}`, whose
 * entries carry Codex's own system prompt and tool settings per model. The gateway cannot know those:
 * it answers an empty catalog, which Codex reads as "use your built-in metadata" for the configured
 * model. The OpenAI list stays beside it.
 * @see https://github.com/openai/codex/blob/main/codex-rs/codex-api/src/endpoint/models.rs
 */
export function encodeOpenaiModelList(models: readonly ModelEntry[], request: WireRequest): JsonObject {
	const list = {object: 'list', data: models.map(encodeOpenaiModel)};
	return readQuery(request, 'client_version') === undefined ? list : {...list, models: []};
}

const emptyChoices = /"choices"\s*:\s*\[\s*\]/;

/**
 * The chunk an OpenAI stream adds for `include_usage`: no choices, only usage. Every other chunk then
 * has `"usage":null`, so a chunk is parsed only when it has empty choices — and the frames of a
 * provider's chunk without them (every delta) go to the client as they came.
 */
const usageOnlyChunk: StreamHiding = {
	near: emptyChoices,
	test(message: SseMessage): boolean {
		if (!message.data.includes('"usage"') || !emptyChoices.test(message.data)) return false;
		const chunk = parseJsonObject(message.data);
		return Array.isArray(chunk?.choices) && chunk.choices.length === 0 && isWireObject(chunk.usage);
	},
};

/** What the gateway adds to a stream request whose client did not ask for usage. */
const includeUsage = addedKeys({stream_options: {include_usage: true}});

export const openaiHttp = {
	routes: [
		{
			kind: 'call',
			method: 'POST',
			url: '/v1/chat/completions',
			read: (_request, body) => ({operation: 'generate', model: requireModel(body), stream: body.stream === true, sse: true}),
		},
		{
			kind: 'call',
			method: 'POST',
			url: '/v1/embeddings',
			read: (_request, body) => ({operation: 'embed', model: requireModel(body), stream: false, sse: false}),
		},
		{kind: 'models', method: 'GET', url: '/v1/models'},
		{kind: 'model', method: 'GET', url: '/v1/models/:id', id: request => request.params.id ?? ''},
	],
	// The catch-all: a path no other format claims is answered in OpenAI's shape.
	ownsPath: () => true,
	presentedKey: readBearer,
	affinity: channel => (channel.format === 'openai' ? 2 : 0),
	/**
	 * One deliberate change: a stream is always asked for usage (`stream_options.include_usage`) so
	 * the gateway can count tokens; when the client did not ask, that extra chunk is not forwarded.
	 */
	passthrough(body, {call, upstreamModel}) {
		const same = body.model === upstreamModel;
		if (call.operation === 'embed') return same ? {path: '/embeddings', body, headers: {}, verbatim: ['model']} : {path: '/embeddings', body: {...body, model: upstreamModel}, headers: {}};
		if (!call.stream) return same ? {path: '/chat/completions', body, headers: {}, verbatim: ['model', 'stream']} : {path: '/chat/completions', body: {...body, model: upstreamModel}, headers: {}};
		const options = body.stream_options;
		const asked = typeof options === 'object' && options !== null && !Array.isArray(options) && options.include_usage === true;
		if (asked && same) return {path: '/chat/completions', body, headers: {}, verbatim: ['model', 'stream', 'stream_options', 'include_usage']};
		// Most clients never name stream_options: their bytes go as they came, the option in front.
		if (same && !Object.hasOwn(body, 'stream_options')) {
			return {path: '/chat/completions', body, headers: {}, hides: usageOnlyChunk, verbatim: ['model', 'stream'], added: includeUsage};
		}
		const streamOptions: JsonObject = {...(typeof options === 'object' && options !== null && !Array.isArray(options) ? options : {}), include_usage: true};
		return {path: '/chat/completions', body: {...body, model: upstreamModel, stream_options: streamOptions}, headers: {}, hides: asked ? undefined : usageOnlyChunk};
	},
	encodeModelList: encodeOpenaiModelList,
	encodeModel: encodeOpenaiModel,
	renderStreamError: error => sseFrame(JSON.stringify(renderOpenAIError(error).body)),
	streamContentType: () => sseContentType,
	upstreamHeaders: (apiKey: string | null): Record<string, string> => (apiKey ? {authorization: `Bearer ${apiKey}`} : {}),
	// OpenAI's list is one page; some compatible servers answer a bare array.
	modelList: {
		path: '/models',
		read: body => listedIds(asArray(body) ?? asArray(asObject(body)?.data), idField, true),
		readOne: body => listedIds([body], idField, true),
	},
} satisfies Partial<InboundAdapter> & {upstreamHeaders(apiKey: string | null): Record<string, string>; modelList: ModelListCall};
