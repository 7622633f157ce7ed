/**
 * Loose Anthropic Messages wire types: only the fields this adapter reads or writes.
 * Inbound bodies are `unknown` and narrowed with the strict readers below (one implementation, in
 * `../wire.ts`); these types describe what we build and what we expect from the provider.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type {JsonObject, JsonValue} from '../../base/ir.js';
import {pydanticWording, wireReaders} from '../wire.js';
import type {AnthropicWebCitation} from './map-anthropic-citations.js';

export type AnthropicCacheControl = {type: 'ephemeral'; ttl?: string};

export type AnthropicTextBlock = {type: 'text'; text: string; cache_control?: AnthropicCacheControl; citations?: AnthropicWebCitation[]};

export type AnthropicImageSource = {type: 'base64'; media_type: string; data: string} | {type: 'url'; url: string};

export type AnthropicImageBlock = {type: 'image'; source: AnthropicImageSource; cache_control?: AnthropicCacheControl};

export type AnthropicToolUseBlock = {type: 'tool_use'; id: string; name: string; input: JsonValue};

export type AnthropicToolResultBlock = {
	type: 'tool_result';
	tool_use_id: string;
	content?: Array<AnthropicTextBlock | AnthropicImageBlock>;
	is_error?: boolean;
	cache_control?: AnthropicCacheControl;
};

export type AnthropicThinkingBlock = {type: 'thinking'; thinking: string; signature: string};

export type AnthropicRedactedThinkingBlock = {type: 'redacted_thinking'; data: string};

export type AnthropicContentBlock =
	| AnthropicTextBlock
	| AnthropicImageBlock
	| AnthropicToolUseBlock
	| AnthropicToolResultBlock
	| AnthropicThinkingBlock
	| AnthropicRedactedThinkingBlock;

/** A block of an assistant answer (response `content`, stream `content_block_start`). */
export type AnthropicAnswerBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicThinkingBlock | AnthropicRedactedThinkingBlock;

export type AnthropicMessage = {role: 'user' | 'assistant'; content: AnthropicContentBlock[]};

export type AnthropicTool = {name: string; description?: string; input_schema: JsonObject; cache_control?: AnthropicCacheControl};

export type AnthropicToolChoice =
	| {type: 'auto' | 'any'; disable_parallel_tool_use?: boolean}
	| {type: 'tool'; name: string; disable_parallel_tool_use?: boolean}
	| {type: 'none'};

export type AnthropicThinking = {type: 'enabled'; budget_tokens: number} | {type: 'disabled'} | {type: 'adaptive'};

export type AnthropicOutputConfig = {format: {type: 'json_schema'; schema: JsonObject}};

/** The request body we send upstream: every key here is a documented Messages parameter (the API rejects unknown ones). */
export type AnthropicRequestBody = {
	model: string;
	max_tokens: number;
	messages: AnthropicMessage[];
	system?: AnthropicTextBlock[];
	metadata?: {user_id: string};
	stop_sequences?: string[];
	stream?: boolean;
	temperature?: number;
	top_p?: number;
	top_k?: number;
	tools?: AnthropicTool[];
	tool_choice?: AnthropicToolChoice;
	thinking?: AnthropicThinking;
	output_config?: AnthropicOutputConfig;
};

/**
 * Usage as Anthropic reports it. `input_tokens` EXCLUDES cache reads and cache writes;
 * stream `message_delta` usage is cumulative and may omit the input fields.
 */
export type AnthropicUsage = {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
	cache_read_input_tokens?: number | null;
	output_tokens_details?: {thinking_tokens?: number | null} | null;
};

export type AnthropicStopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'pause_turn' | 'refusal' | 'model_context_window_exceeded';

export type AnthropicResponseBody = {
	id: string;
	type: 'message';
	role: 'assistant';
	model: string;
	content: AnthropicAnswerBlock[];
	stop_reason: AnthropicStopReason | null;
	stop_sequence: string | null;
	usage: AnthropicUsage;
};

/** Strict readers for client requests, worded as Anthropic's validation words a bad field (`messages.0.content.1.text: Field required`). */
export const {requireString, optionalString, optionalNumber, optionalBoolean, requireObject, requireArray, optionalStringArray} = wireReaders(pydanticWording);
