import type {JsonObject, JsonValue} from '../../base/ir.js';
import {isWireObject, isJsonObject, asString, asNumber, asObject, asArray, type WireObject} from '../wire.js';
import type {ResponseStatus} from './schema.js';

/** What every Response object of one answer shares: its id, time, model and the request's settings, echoed. */
export type ResponseBase = {readonly id: string; readonly createdAt: number; readonly model: string; readonly echo: Echo};

type Echo = {
	readonly instructions: JsonValue;
	readonly maxOutputTokens: JsonValue;
	readonly parallelToolCalls: boolean;
	readonly promptCacheKey: JsonValue;
	readonly reasoning: JsonObject;
	readonly temperature: number;
	readonly topP: number;
	readonly text: JsonObject;
	readonly toolChoice: JsonValue;
	readonly tools: JsonObject[];
	readonly user: JsonValue;
	readonly metadata: JsonObject;
	readonly previousResponseId: JsonValue;
	readonly store: boolean;
};

const orNull = (value: string | number | undefined): JsonValue => value ?? null;

/** The request's settings, as the API repeats them in its answer (with the API's defaults where the client sent none). */
export function echoRequest(request: unknown): Echo {
	const body: WireObject = isWireObject(request) ? request : {};
	const reasoning = asObject(body.reasoning);
	const text = asObject(body.text);
	const toolChoice = body.tool_choice;
	return {
		instructions: orNull(asString(body.instructions)),
		maxOutputTokens: orNull(asNumber(body.max_output_tokens)),
		parallelToolCalls: body.parallel_tool_calls !== false,
		promptCacheKey: orNull(asString(body.prompt_cache_key)),
		reasoning: {effort: orNull(reasoning && asString(reasoning.effort)), summary: orNull(reasoning && asString(reasoning.summary))},
		temperature: asNumber(body.temperature) ?? 1,
		topP: asNumber(body.top_p) ?? 1,
		text: {format: text && isJsonObject(text.format) ? text.format : {type: 'text'}, verbosity: (text && asString(text.verbosity)) ?? 'medium'},
		toolChoice: typeof toolChoice === 'string' || isJsonObject(toolChoice) ? toolChoice : 'auto',
		tools: (asArray(body.tools) ?? []).filter(isJsonObject),
		user: orNull(asString(body.user)),
		metadata: isJsonObject(body.metadata) ? body.metadata : {},
		previousResponseId: orNull(asString(body.previous_response_id)),
		// True when the gateway keeps this answer (stored-responses.ts says so on the request it echoes).
		store: body.store === true,
	};
}

export type ResponseState = {
	readonly status: ResponseStatus;
	readonly output: readonly JsonObject[];
	readonly usage: JsonObject | null;
	readonly error?: JsonObject | null;
	readonly incompleteDetails?: JsonObject | null;
};

/**
 * A Response object with the fields (and order) the API sends; `store` and `previous_response_id`
 * as the client asked (see stored-responses.ts). `output_text` is not on the wire: the SDKs compute it.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function encodeResponseObject(base: ResponseBase, state: ResponseState): JsonObject {
	const {echo} = base;
	return {
		id: base.id,
		object: 'response',
		created_at: base.createdAt,
		status: state.status,
		background: false,
		completed_at: state.status === 'completed' ? Math.floor(Date.now() / 1000) : null,
		error: state.error ?? null,
		incomplete_details: state.incompleteDetails ?? null,
		instructions: echo.instructions,
		max_output_tokens: echo.maxOutputTokens,
		max_tool_calls: null,
		model: base.model,
		output: [...state.output],
		parallel_tool_calls: echo.parallelToolCalls,
		previous_response_id: echo.previousResponseId,
		prompt_cache_key: echo.promptCacheKey,
		reasoning: echo.reasoning,
		safety_identifier: null,
		service_tier: 'default',
		store: echo.store,
		temperature: echo.temperature,
		text: echo.text,
		tool_choice: echo.toolChoice,
		tools: echo.tools,
		top_logprobs: 0,
		top_p: echo.topP,
		truncation: 'disabled',
		usage: state.usage,
		user: echo.user,
		metadata: echo.metadata,
	};
}
