/**
 * Gemini `generationConfig` ↔ the IR's sampling, length, stop, JSON-output and reasoning fields.
 *
 * JSON output goes out as `responseMimeType: application/json` + `responseJsonSchema` (plain JSON
 * Schema, Gemini 2.5 and later) rather than `responseSchema` (the OpenAPI subset), so client schemas
 * keep `additionalProperties`, `$ref` and friends. Gemini takes at most 5 stop sequences.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerationConfig
 * @see https://ai.google.dev/gemini-api/docs/structured-output
 */
import type {TranslationContext} from '../adapter.js';
import type {IRRequest, IRResponseFormat, JsonObject} from '../../base/ir.js';
import {decodeGeminiSchema} from './decode-gemini-schema.js';
import {decodeGeminiThinking, encodeGeminiThinking} from './map-gemini-thinking.js';
import {asJsonObject, compact, definedOnly, type WireObject} from '../wire.js';
import {pick, pickArray, pickNumber, pickRecord, pickString} from './schema.js';

const maxStopSequences = 5;

type GenerationFields = Pick<IRRequest, 'maxTokens' | 'temperature' | 'topP' | 'topK' | 'stop' | 'responseFormat' | 'reasoning'>;

function decodeResponseFormat(config: WireObject, ctx: TranslationContext): IRResponseFormat | undefined {
	const mimeType = pickString(config, 'responseMimeType');
	if (mimeType === undefined || mimeType === 'text/plain') return undefined;
	if (mimeType !== 'application/json') {
		ctx.warn(`responseMimeType ${mimeType} has no equivalent outside Gemini; the answer will be plain text.`);
		return undefined;
	}
	const jsonSchema = asJsonObject(pick(config, 'responseJsonSchema'));
	const schema = asJsonObject(pick(config, 'responseSchema'));
	if (jsonSchema) return {type: 'json_schema', schema: jsonSchema};
	if (schema) return {type: 'json_schema', schema: decodeGeminiSchema(schema)};
	return {type: 'json_object'};
}

export function decodeGeminiGenerationConfig(config: WireObject | undefined, ctx: TranslationContext): GenerationFields {
	if (!config) return {};
	const candidates = pickNumber(config, 'candidateCount');
	if (candidates !== undefined && candidates > 1) ctx.warn(`candidateCount ${candidates} is not translated; one candidate will be returned.`);
	const stop = pickArray(config, 'stopSequences')?.filter((item): item is string => typeof item === 'string');
	const fields: GenerationFields = {
		maxTokens: pickNumber(config, 'maxOutputTokens'),
		temperature: pickNumber(config, 'temperature'),
		topP: pickNumber(config, 'topP'),
		topK: pickNumber(config, 'topK'),
		stop: stop && stop.length > 0 ? stop : undefined,
		responseFormat: decodeResponseFormat(config, ctx),
		reasoning: decodeGeminiThinking(pickRecord(config, 'thinkingConfig')),
	};
	return definedOnly(fields);
}

function encodeResponseFormat(format: IRResponseFormat | undefined): JsonObject {
	switch (format?.type) {
		case 'json_object':
			return {responseMimeType: 'application/json'};
		case 'json_schema':
			return {responseMimeType: 'application/json', responseJsonSchema: format.schema};
		default:
			return {};
	}
}

export function encodeGeminiGenerationConfig(request: IRRequest, model: string, ctx: TranslationContext): JsonObject | undefined {
	let stop = request.stop && request.stop.length > 0 ? [...request.stop] : undefined;
	if (stop && stop.length > maxStopSequences) {
		ctx.warn(`Gemini accepts at most ${maxStopSequences} stop sequences; dropped ${stop.slice(maxStopSequences).map(item => JSON.stringify(item)).join(', ')}.`);
		stop = stop.slice(0, maxStopSequences);
	}
	const config = compact({
		maxOutputTokens: request.maxTokens,
		temperature: request.temperature,
		topP: request.topP,
		topK: request.topK,
		stopSequences: stop,
		...encodeResponseFormat(request.responseFormat),
		thinkingConfig: encodeGeminiThinking(request.reasoning, model, ctx),
	});
	return Object.keys(config).length > 0 ? config : undefined;
}
