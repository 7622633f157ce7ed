/**
 * The contract every wire format implements. The relay only ever talks to this interface:
 * a fourth format (OpenAI Responses) is one more folder implementing it, not more converters.
 */
import type {Format, InboundFormat, IRError, IRRequest, IRResponse, IRStreamEvent, JsonObject, JsonValue} from '../base/ir.js';
import type {SseMessage} from './sse.js';

/** Per-request translation context: collects losses and provides I/O the conversion may need. */
export type TranslationContext = {
	/** Record a loss (e.g. a reasoning signature that cannot reach this provider). Shown on the request log; never silent. */
	warn(message: string): void;
	/** Fetch an http(s) image as base64 (Gemini needs inline bytes). Enforces a size limit and a time-out; throws a GatewayError (400) when it cannot. */
	fetchImage(url: string): Promise<{mediaType: string; data: string}>;
};

/** Where the decoded request came from, for formats that carry model and streaming outside the body (Gemini: in the URL). */
export type DecodeRequestOptions = {readonly model?: string; readonly stream?: boolean};

/** The upstream call: the model name the provider knows, and whether to stream. */
export type UpstreamTarget = {
	readonly model: string;
	readonly stream: boolean;
	/** The channel's base URL, for provider quirks inside one format (api.openai.com wants `max_completion_tokens`). */
	readonly baseUrl: string;
	/** Used when the client gave no max tokens and the format requires one (Anthropic). */
	readonly defaultMaxTokens: number;
};

/** An encoded upstream request; `path` is relative to the channel's base URL (which follows each SDK's convention). */
export type EncodedRequest = {
	readonly path: string;
	readonly query?: Readonly<Record<string, string>>;
	readonly body: JsonObject;
};

export type EncodeResponseOptions = {
	/** The model name the client asked for (aliases are never revealed). */
	readonly model: string;
	/**
	 * The client's request body as it arrived, for formats whose answer echoes it: a Responses
	 * object repeats the request's settings, and answers a `custom` tool with a `custom_tool_call`.
	 */
	readonly request?: unknown;
};

export type EncodeStreamOptions = EncodeResponseOptions & {
	/** OpenAI: the client asked for `stream_options.include_usage`. */
	readonly includeUsage: boolean;
	/** Gemini: the client asked for `alt=sse`; otherwise the stream is a JSON array. */
	readonly sse: boolean;
};

/**
 * What a format clients speak needs: its requests decoded, its answers and errors encoded, and its
 * own answers read back (usage and errors when a request passes through in this format unchanged).
 */
export type InboundAdapter = {
	readonly format: InboundFormat;
	/** Inbound wire request → IR. Throws a GatewayError (400, in words the client can act on) when the body is not valid for this format. */
	decodeRequest(body: unknown, options: DecodeRequestOptions, ctx: TranslationContext): IRRequest;
	/** Upstream non-streaming answer → IR. */
	decodeResponse(body: unknown, ctx: TranslationContext): IRResponse;
	/** IR → the answer a client of this format expects. */
	encodeResponse(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): JsonValue;
	/** Upstream SSE messages → IR stream events; ends with exactly one `finish` or `error`. */
	decodeStream(messages: AsyncIterable<SseMessage>, ctx: TranslationContext): AsyncGenerator<IRStreamEvent>;
	/** IR stream events → the text chunks a client of this format expects (SSE frames, or a JSON array for Gemini without alt=sse). */
	encodeStream(events: AsyncIterable<IRStreamEvent>, options: EncodeStreamOptions, ctx: TranslationContext): AsyncGenerator<string>;
	/** An upstream error answer (status + parsed body) → IR error, keeping the provider's message. */
	decodeError(status: number, body: unknown): IRError;
	/** A gateway or upstream error → this format's error body. */
	renderError(error: IRError): {readonly status: number; readonly body: JsonObject};
};

/** A channel format: also encodes IR requests for its providers. */
export type FormatAdapter = InboundAdapter & {
	readonly format: Format;
	/** IR → upstream wire request for a channel of this format. */
	encodeRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): Promise<EncodedRequest>;
};
