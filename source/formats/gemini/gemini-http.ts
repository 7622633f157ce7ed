/**
 * Gemini over HTTP: POST /v1beta/models/{model}:generateContent | :streamGenerateContent | :countTokens
 * (the model and the method are in the path), GET /v1beta/models and /v1beta/models/{model}.
 * @see https://ai.google.dev/api/generate-content
 */
import {GatewayError, invalidRequest} from '../../base/errors.js';
import type {JsonObject} from '../../base/ir.js';
import type {InboundAdapter, InboundCall, InboundRoute, ModelEntry, ModelListCall, WireRequest} from '../adapter.js';
import {asArray, asObject, asString, listedIds} from '../wire.js';
import {decodePathSegment, readBearer, readHeader, readQuery, sseContentType} from '../http.js';
import {sseFrame} from '../sse.js';
import {renderGeminiError} from './errors.js';
import {bareName} from './model-family.js';

const methods = {generateContent: 'generate', streamGenerateContent: 'generate', countTokens: 'count_tokens', embedContent: 'embed', batchEmbedContents: 'embed'} as const;
type Method = keyof typeof methods;

const isMethod = (text: string): text is Method => Object.hasOwn(methods, text);

function describeGeminiModel({id, channel}: ModelEntry): JsonObject {
	return {
		name: `models/${id}`,
		version: '001',
		displayName: id,
		description: `Served by gateway-tui channel "${channel.name}" (${channel.format}).`,
		supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
	};
}

/** `{model}:{method}` from the path after /v1beta/models/. */
export function readGeminiCall(request: WireRequest): InboundCall {
	const target = request.params['*'] ?? '';
	const colon = target.lastIndexOf(':');
	const method = colon > 0 ? target.slice(colon + 1) : '';
	if (!isMethod(method)) {
		throw new GatewayError('not_implemented', 501, `The Gemini method "${method || target}" is not supported by gateway-tui; it serves generateContent, streamGenerateContent, countTokens, embedContent and batchEmbedContents.`);
	}
	const model = bareName(decodePathSegment(target.slice(0, colon)));
	if (!model) throw invalidRequest('The URL names no model: use /v1beta/models/{model}:generateContent.');
	return {operation: methods[method], model, stream: method === 'streamGenerateContent', sse: readQuery(request, 'alt') === 'sse', method};
}

function upstreamMethod(call: InboundCall): Method {
	if (call.operation === 'count_tokens') return 'countTokens';
	if (call.operation === 'embed') return call.method === 'embedContent' ? 'embedContent' : 'batchEmbedContents';
	return call.stream ? 'streamGenerateContent' : 'generateContent';
}

const modelId = (request: WireRequest) => bareName(decodePathSegment(request.params['*'] ?? ''));

/**
 * Gemini's routes under a version prefix. Clients given a base URL that already ends in the version,
 * or none (`…/models/{m}:streamGenerateContent`), must get the same answer as /v1beta clients.
 */
function modelRoutes(prefix: string): InboundRoute[] {
	return [
		{kind: 'call', method: 'POST', url: `${prefix}/models/*`, read: readGeminiCall},
		{kind: 'models', method: 'GET', url: `${prefix}/models`},
		{kind: 'model', method: 'GET', url: `${prefix}/models/*`, id: modelId},
	];
}

export const geminiHttp = {
	routes: [
		...[`/v1beta`, ''].flatMap(prefix => modelRoutes(prefix)),
		// The stable version's path (`apiVersion: 'v1'`); GET /v1/models belongs to OpenAI.
		{kind: 'call', method: 'POST', url: '/v1/models/*', read: readGeminiCall},
	],
	ownsPath: request => /^\/(v1beta\/|v1beta$|models\b)/.test(request.url) || (request.method === 'POST' && request.url.startsWith('/v1/models/')),
	presentedKey: request => readHeader(request, 'x-goog-api-key') ?? readQuery(request, 'key') ?? readBearer(request),
	affinity: channel => (channel.format === 'gemini' ? 2 : 0),
	passthrough(body, {call, upstreamModel}) {
		const inner = body.generateContentRequest;
		const requests = body.requests;
		const rewritten =
			typeof inner === 'object' && inner !== null && !Array.isArray(inner)
				? {...body, generateContentRequest: {...inner, model: `models/${upstreamModel}`}}
				: Array.isArray(requests)
					? {...body, requests: requests.map(item => (typeof item === 'object' && item !== null && !Array.isArray(item) ? {...item, model: `models/${upstreamModel}`} : item))}
					: body;
		return {
			path: `/v1beta/models/${encodeURIComponent(upstreamModel)}:${upstreamMethod(call)}`,
			query: call.stream && call.sse ? {alt: 'sse'} : undefined,
			body: rewritten,
			headers: {},
			// The model is in the path; a body left as it came goes as it came.
			verbatim: rewritten === body ? [] : undefined,
		};
	},
	encodeModelList: models => ({models: models.map(describeGeminiModel)}),
	encodeModel: describeGeminiModel,
	renderStreamError: error => sseFrame(JSON.stringify(renderGeminiError(error).body)),
	streamContentType: ({sse}) => (sse ? sseContentType : 'application/json; charset=utf-8'),
	upstreamHeaders: (apiKey: string | null): Record<string, string> => (apiKey ? {'x-goog-api-key': apiKey} : {}),
	// 50 a page unless asked (at most 1000); a name is `models/ID`.
	modelList: {
		path: '/v1beta/models',
		query: {pageSize: '1000'},
		read: body => {
			const list = asObject(body);
			return listedIds(asArray(list?.models), geminiModelId, list !== undefined && asString(list.nextPageToken) === undefined);
		},
		readOne: body => listedIds([body], geminiModelId, true),
	},
} satisfies Partial<InboundAdapter> & {upstreamHeaders(apiKey: string | null): Record<string, string>; modelList: ModelListCall};

/** A listed model's id: its name without the `models/` prefix. */
function geminiModelId(item: unknown): string | undefined {
	return asString(asObject(item)?.name)?.replace(/^models\//, '');
}
