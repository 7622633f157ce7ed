/**
 * The neutral form every wire format is decoded into and encoded from (hub and spoke).
 *
 * It is a superset of what the three formats can say: text, images, tool calls and results,
 * reasoning with provider signatures, system prompt with cache markers, usage with cached and
 * reasoning tokens, finish reasons. Adapters in `formats/<format>/` convert to and from it; no
 * adapter knows about another format.
 */

/** The channel formats: a new one is a word here, a folder in formats/ and a line in formats/index.ts. */
export const formats = ['openai', 'anthropic', 'gemini'] as const;

export type Format = (typeof formats)[number];

/**
 * What a client may speak: every channel format, plus the OpenAI Responses API, which the gateway
 * accepts from clients (Codex, `client.responses.create`) but never translates into. A Responses
 * request reaches an OpenAI channel unchanged (when the channel speaks it) or is translated to the
 * channel's own format.
 */
export const inboundFormats = [...formats, 'responses'] as const;

export type InboundFormat = (typeof inboundFormats)[number];

export type JsonValue = string | number | boolean | null | JsonValue[] | {[key: string]: JsonValue};
export type JsonObject = {[key: string]: JsonValue};

/** A prompt-cache marker (Anthropic `cache_control`). Formats without one drop it silently: it is an optimisation, not content. */
export type IRCacheControl = {readonly type: 'ephemeral'; readonly ttl?: string};

/**
 * An opaque reasoning signature (Anthropic thinking `signature`, Gemini `thoughtSignature`).
 * It may only go back to the format that made it; `format` records which.
 */
export type IRSignature = {readonly format: Format; readonly value: string};

export type IRImageSource =
	| {readonly kind: 'base64'; readonly mediaType: string; readonly data: string}
	| {readonly kind: 'url'; readonly url: string; readonly mediaType?: string};

/**
 * A web source the answer cites (Anthropic `web_search_result_location`, OpenAI `url_citation`,
 * Gemini grounding chunk). `start`/`end` are character offsets into the text part when the source
 * format gives them; `citedText` is the passage it quotes.
 */
export type IRCitation = {readonly url: string; readonly title?: string; readonly citedText?: string; readonly start?: number; readonly end?: number};

export type IRTextPart = {
	readonly type: 'text';
	readonly text: string;
	readonly cache?: IRCacheControl;
	readonly signature?: IRSignature;
	readonly citations?: readonly IRCitation[];
};
export type IRImagePart = {readonly type: 'image'; readonly source: IRImageSource; readonly cache?: IRCacheControl};

/** A tool call made by the assistant. `arguments` is the JSON text of the arguments object. */
export type IRToolCallPart = {
	readonly type: 'tool_call';
	readonly id: string;
	readonly name: string;
	readonly arguments: string;
	readonly signature?: IRSignature;
};

/** The result of a tool call, sent by the user side. `name` is known when the source format carries it (Gemini needs it). */
export type IRToolResultPart = {
	readonly type: 'tool_result';
	readonly toolCallId: string;
	readonly name?: string;
	readonly content: ReadonlyArray<IRTextPart | IRImagePart>;
	readonly isError?: boolean;
	readonly cache?: IRCacheControl;
};

/** Model reasoning. `redacted` holds Anthropic's encrypted `redacted_thinking` data. */
export type IRReasoningPart = {
	readonly type: 'reasoning';
	readonly text: string;
	readonly signature?: IRSignature;
	readonly redacted?: string;
};

export type IRPart = IRTextPart | IRImagePart | IRToolCallPart | IRToolResultPart | IRReasoningPart;

export type IRMessage = {readonly role: 'user' | 'assistant'; readonly parts: readonly IRPart[]};

export type IRSystemBlock = {readonly text: string; readonly cache?: IRCacheControl};

export type IRTool = {
	readonly name: string;
	readonly description?: string;
	/** JSON Schema of the arguments object, as the client sent it (adapters clean it for their target). */
	readonly parameters: JsonObject;
	readonly cache?: IRCacheControl;
};

export type IRToolChoice =
	| {readonly type: 'auto'}
	| {readonly type: 'none'}
	| {readonly type: 'required'}
	| {readonly type: 'tool'; readonly name: string};

export type IRResponseFormat =
	| {readonly type: 'text'}
	| {readonly type: 'json_object'}
	| {readonly type: 'json_schema'; readonly name?: string; readonly schema: JsonObject; readonly strict?: boolean};

export type IRReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** Reasoning requested by the client: an effort level, a token budget, or explicitly off. */
export type IRReasoningConfig =
	| {readonly enabled: false}
	| {readonly enabled: true; readonly effort?: IRReasoningEffort; readonly budgetTokens?: number};

export type IRRequest = {
	readonly model: string;
	readonly system: readonly IRSystemBlock[];
	readonly messages: readonly IRMessage[];
	readonly tools: readonly IRTool[];
	readonly toolChoice?: IRToolChoice;
	readonly parallelToolCalls?: boolean;
	readonly maxTokens?: number;
	readonly temperature?: number;
	readonly topP?: number;
	readonly topK?: number;
	readonly stop?: readonly string[];
	readonly responseFormat?: IRResponseFormat;
	readonly reasoning?: IRReasoningConfig;
	readonly stream: boolean;
	/** OpenAI `stream_options.include_usage`: the client wants the usage chunk. */
	readonly includeUsage?: boolean;
	/** An end-user id for abuse tracking (OpenAI `user`, Anthropic `metadata.user_id`). */
	readonly user?: string;
};

/**
 * Why generation stopped. `length` covers a tool call cut off by the token limit
 * (never `tool_calls`). `error` is for streams that ended by an upstream error.
 */
export type IRFinishReason = 'stop' | 'length' | 'tool_calls' | 'stop_sequence' | 'content_filter' | 'refusal' | 'error' | 'other';

/**
 * Token counts. `inputTokens` is the whole prompt INCLUDING cache reads and cache writes;
 * `outputTokens` is the whole completion INCLUDING reasoning tokens. Convert, don't copy:
 * Anthropic's `input_tokens` excludes cache reads, Gemini's `candidatesTokenCount` excludes thoughts.
 */
export type IRUsage = {
	readonly inputTokens: number;
	readonly outputTokens: number;
	readonly cachedTokens?: number;
	readonly cacheCreationTokens?: number;
	readonly reasoningTokens?: number;
	/**
	 * Counted by the gateway because the provider reported none: embeddings at Gemini, or a stream
	 * that ended before its usage came (proxy/interrupted-usage.ts).
	 */
	readonly estimated?: boolean;
	/** The one count the gateway estimated, the provider's other kept (an interrupted Anthropic stream's prompt); absent: all of them. */
	readonly estimatedOnly?: 'input' | 'output';
};

/** Whether `side` of `usage` is the gateway's estimate rather than the provider's count. */
export function isEstimated(usage: IRUsage, side: 'input' | 'output'): boolean {
	return usage.estimated === true && (usage.estimatedOnly === undefined || usage.estimatedOnly === side);
}

/** One input of an embeddings request: text, or token ids (OpenAI only). */
export type IREmbedInput = {readonly type: 'text'; readonly text: string} | {readonly type: 'tokens'; readonly tokens: readonly number[]};

export type IREmbedRequest = {
	readonly inputs: readonly IREmbedInput[];
	/** OpenAI `dimensions` = Gemini `outputDimensionality`. */
	readonly dimensions?: number;
	/** Gemini only (RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, …). */
	readonly taskType?: string;
	readonly title?: string;
};

export type IREmbedResponse = {
	/** One vector per input, in input order. */
	readonly vectors: ReadonlyArray<readonly number[]>;
	readonly usage: IRUsage | null;
};

export type IRResponse = {
	readonly id: string;
	readonly model: string;
	readonly parts: ReadonlyArray<IRTextPart | IRToolCallPart | IRReasoningPart>;
	readonly finishReason: IRFinishReason;
	readonly stopSequence?: string;
	readonly usage: IRUsage;
};

export type IRBlockStart =
	| {readonly kind: 'text'}
	| {readonly kind: 'reasoning'}
	| {readonly kind: 'tool_call'; readonly id: string; readonly name: string};

/**
 * One step of a streamed answer. Blocks are numbered by the decoder from 0 in the order they start;
 * each `block-start` is followed by its deltas and one `block-end`. Blocks may interleave only when
 * the source does (parallel OpenAI tool calls). The stream ends with exactly one `finish` or `error`.
 */
export type IRStreamEvent =
	| {readonly type: 'start'; readonly id: string; readonly model: string; readonly usage?: Partial<IRUsage>}
	| {readonly type: 'block-start'; readonly index: number; readonly block: IRBlockStart}
	| {readonly type: 'text-delta'; readonly index: number; readonly text: string}
	| {readonly type: 'reasoning-delta'; readonly index: number; readonly text: string}
	| {readonly type: 'signature'; readonly index: number; readonly signature: IRSignature}
	| {readonly type: 'redacted-reasoning'; readonly index: number; readonly data: string}
	| {readonly type: 'tool-args-delta'; readonly index: number; readonly json: string}
	/** A source cited by the text block `index` (Anthropic streams them as it writes; Gemini with its last chunk). */
	| {readonly type: 'citation'; readonly index: number; readonly citation: IRCitation}
	| {readonly type: 'block-end'; readonly index: number}
	| {readonly type: 'usage'; readonly usage: Partial<IRUsage>}
	| {readonly type: 'finish'; readonly reason: IRFinishReason; readonly stopSequence?: string; readonly usage: IRUsage}
	| {readonly type: 'error'; readonly error: IRError};

/** What kind of failure, independent of any format. Each format renders it with its own type/status names. */
export type IRErrorKind =
	| 'invalid_request'
	| 'authentication'
	| 'permission'
	| 'not_found'
	| 'payload_too_large'
	| 'rate_limit'
	| 'insufficient_quota'
	| 'overloaded'
	| 'timeout'
	| 'upstream'
	| 'not_implemented'
	| 'internal';

export type IRError = {
	readonly kind: IRErrorKind;
	readonly status: number;
	readonly message: string;
	/** A machine-readable code where the format has one (OpenAI `code`, e.g. `invalid_api_key`, `model_not_found`). */
	readonly code?: string;
	readonly param?: string;
	/** Seconds, as the `retry-after` header says. */
	readonly retryAfter?: string;
};

/** An answer's text part with nothing but its text (no signature, no citations): what an encoder may write as plain text. */
export function isPlainText(part: IRResponse['parts'][number]): part is IRTextPart {
	return part.type === 'text' && !part.signature && !(part.citations && part.citations.length > 0);
}

export function assertNever(value: never, what = 'value'): never {
	throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
