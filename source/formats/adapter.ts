/**
 * The contract every wire format implements. The relay only ever talks to this interface:
 * a fourth format (OpenAI Responses) is one more folder implementing it, not more converters.
 */
import type {Format, InboundFormat, IREmbedRequest, IREmbedResponse, IRError, IRRequest, IRResponse, IRSignature, IRStreamEvent, IRUsage, JsonObject, JsonValue} from '../base/ir.js';
import type {ChannelRecord} from '../base/records.js';
import type {StreamReader} from './stream-reader.js';
import type {SseMessage} from './sse.js';
import type {ToolNameMap} from './tool-names.js';
import type {AnswerUsage} from './answer-usage.js';
import type {StreamDecoder, StreamEncoder} from './stream-steps.js';

/** Per-request translation context: collects losses and provides I/O the conversion may need. */
export type TranslationContext = {
	/** Record a loss (e.g. a reasoning signature that cannot reach this provider). Shown on the request log; never silent. */
	warn(message: string): void;
	/** Fetch an http(s) image as base64 (Gemini needs inline bytes). Enforces a size limit and a time-out; throws a GatewayError (400) when it cannot. */
	fetchImage(url: string): Promise<{mediaType: string; data: string}>;
	/** Reasoning signatures of tool calls whose client format has no slot for them (owned by the gateway, not the module). */
	readonly signatures: SignatureMemory;
	/**
	 * This request's tool-name aliases (names providers reject go upstream as aliases and come back
	 * under their own name). Created by formats on first use when the caller gives none; one per request.
	 */
	toolNames?: ToolNameMap;
};

/** Tool-call id → the signature its provider attached, for formats that cannot carry it to the client and back. */
export type SignatureMemory = {
	remember(toolCallId: string, signature: IRSignature): void;
	recall(toolCallId: string): IRSignature | undefined;
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
	/**
	 * The prompt's tokens counted by the gateway, for a format whose stream states them at its start
	 * (Anthropic `message_start`) when the provider only reports usage at the end (chat completions).
	 */
	readonly estimateInputTokens?: () => number;
};

/** A request as the proxy received it: what a format needs to find its key, model and method. */
export type WireRequest = {
	readonly method: string;
	/** Path and query, as sent. */
	readonly url: string;
	readonly headers: Readonly<Record<string, string | string[] | undefined>>;
	readonly query: Readonly<Record<string, unknown>>;
	readonly params: Readonly<Record<string, string | undefined>>;
};

export type Operation = 'generate' | 'count_tokens' | 'embed';

/** What a generation or counting request asks for, read from its URL and body. */
export type InboundCall = {
	readonly operation: Operation;
	readonly model: string;
	readonly stream: boolean;
	/** Gemini: the client asked for `alt=sse` (otherwise a streamed answer is a JSON array). */
	readonly sse: boolean;
	/** The wire method where a format has several for one operation (Gemini `embedContent` / `batchEmbedContents`). */
	readonly method?: string;
};

/** Embeddings as a client of this format asks for them and expects them back. */
export type InboundEmbeddings = {
	decodeRequest(body: JsonObject, call: InboundCall): IREmbedRequest;
	encodeResponse(response: IREmbedResponse, options: {readonly model: string; readonly call: InboundCall; readonly request: JsonObject}): JsonValue;
	/** This format's own answer, read for usage when it passes through. */
	decodeResponse(body: unknown): IREmbedResponse;
};

/** Embeddings at a provider of this format. A format without it (Anthropic) has no embeddings API. */
export type UpstreamEmbeddings = {
	/** Throws a GatewayError (400) for what the provider cannot take (token ids at Gemini). */
	encodeRequest(request: IREmbedRequest, target: UpstreamTarget): EncodedRequest;
	decodeResponse(body: unknown): IREmbedResponse;
};

/** A model a key may use, as the model-list endpoints show it. */
export type ModelEntry = {readonly id: string; readonly channel: ChannelRecord};

/**
 * The HTTP routes of a format. The proxy registers them all from the adapter table; where two
 * formats share a route (GET /v1/models), the one whose `claims` matches the request serves it.
 */
export type InboundRoute =
	| {readonly kind: 'call'; readonly method: 'POST'; readonly url: string; read(request: WireRequest, body: JsonObject): InboundCall}
	| {readonly kind: 'models'; readonly method: 'GET'; readonly url: string; claims?(request: WireRequest): boolean}
	| {readonly kind: 'model'; readonly method: 'GET'; readonly url: string; id(request: WireRequest): string; claims?(request: WireRequest): boolean}
	| {readonly kind: 'refuse'; readonly method: 'GET' | 'POST' | 'DELETE'; readonly url: string; error(request: WireRequest): IRError}
	| {readonly kind: 'stored'; readonly method: 'GET' | 'DELETE'; readonly url: string; readonly action: StoredAction};

/** What a route of stored answers does with the answer `:id` names. */
export type StoredAction = 'retrieve' | 'delete' | 'input_items';

/** A turn the gateway kept: the input items its request added, and the answer as the client got it. */
export type KeptTurn = {readonly id: string; readonly input: readonly JsonObject[]; readonly response: JsonObject};

/**
 * A format whose clients ask the server to keep answers and continue from them (the Responses API's
 * `store` and `previous_response_id`). The gateway keeps them itself for channels that cannot.
 */
export type StoredAnswers = {
	/** What a request asks of the store: the answer it continues, and whether its own answer is to be kept. */
	readRequest(body: JsonObject): {readonly continues?: string; readonly keep: boolean};
	/** The request with the kept conversation (oldest turn first) in front of its own input, and no reference left. */
	expand(body: JsonObject, earlier: readonly KeptTurn[]): JsonObject;
	/** This request's own input items as they are kept and listed (each with an id). */
	keptInput(body: JsonObject): JsonObject[];
	/** Encoders that answer `request` (the client's own, before `expand`) and hand each finished answer to `keep`. */
	answering(request: JsonObject, keep: ((turn: {readonly id: string; readonly response: JsonObject}) => void) | undefined): Pick<InboundAdapter, 'encodeResponse' | 'encodeStream'> & Required<Pick<InboundAdapter, 'streamEncoder'>>;
	/** The answer of a `retrieve` route. */
	renderRetrieved(turn: KeptTurn, request: WireRequest): JsonValue;
	/** The answer of an `input_items` route: `turns` is the conversation up to the one asked for, oldest first. */
	renderInputItems(turns: readonly KeptTurn[], request: WireRequest): JsonValue;
	renderDeleted(id: string): JsonValue;
	/** Nothing kept under `id` for this key: the answer to a route (`continuing` false) or to a request continuing it. */
	notFound(id: string, continuing: boolean): IRError;
};

/** What the proxy needs to forward a request unchanged to a channel speaking this wire. */
export type PassthroughCall = {
	readonly call: InboundCall;
	readonly upstreamModel: string;
	readonly headers: WireRequest['headers'];
};

export type PassthroughRequest = {
	readonly path: string;
	readonly query?: Readonly<Record<string, string>>;
	readonly body: JsonObject;
	/** Client headers the provider needs as they were sent (never credentials). */
	readonly headers: Readonly<Record<string, string>>;
	/** Stream frames the gateway asked for on its own account and the client must not see. */
	readonly hides?: StreamHiding;
	/**
	 * Set when `body` is the client's own, unchanged (its model already the upstream one): the bytes
	 * the client sent may go upstream instead of `body` re-encoded, provided each of these keys — the
	 * ones the gateway routes and meters by — appears in them once (a duplicate key is read as its
	 * last value by the gateway and perhaps as its first by the provider).
	 */
	readonly verbatim?: readonly string[];
	/**
	 * Keys the gateway adds in front of the client's (`body` has none of them): `value`, and the same
	 * as JSON text (`members`), written in front of the first key of the client's bytes when those go
	 * upstream (see `verbatim`).
	 */
	readonly added?: AddedKeys;
};

export type AddedKeys = {readonly value: JsonObject; readonly members: string};

/** Keys to add in front of a client's body, as a value and as JSON text. */
export function addedKeys(value: JsonObject): AddedKeys {
	return {value, members: JSON.stringify(value).slice(1, -1)};
}

/**
 * Which frames of a passed-through stream the client must not see: `test` tells by the message;
 * `near` is a pattern every such frame's text matches (ASCII only: it is tested on the bytes as
 * Latin-1), so that the frames of a chunk without it go to the client as they came, unparsed.
 */
export type StreamHiding = {readonly near: RegExp; readonly test: (message: SseMessage) => boolean};

/** Token counting: the request a client of this format sends, and the answer it expects. */
export type InboundCounting = {
	decodeRequest(body: unknown, call: InboundCall, ctx: TranslationContext): IRRequest;
	encodeResponse(total: number): JsonValue;
};

/** Token counting at a provider of this format; a format without it is counted with the tokenizer. */
export type UpstreamCounting = {
	encodeRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): Promise<EncodedRequest>;
	decodeResponse(body: unknown): number;
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
	/** `JSON.stringify(encodeResponse(…))`, the same text written directly, where a format has it: a translated whole answer is sent as this. */
	encodeResponseText?(response: IRResponse, options: EncodeResponseOptions, ctx: TranslationContext): string;
	/** Upstream SSE messages → IR stream events; ends with exactly one `finish` or `error`. */
	decodeStream(messages: AsyncIterable<SseMessage>, ctx: TranslationContext): AsyncGenerator<IRStreamEvent>;
	/** `decodeStream` as a synchronous step per message (stream-steps.ts), where the format has one: translated streams use it. */
	streamDecoder?(ctx: TranslationContext): StreamDecoder;
	/** A reader of this format's streams passed through unchanged: usage, error and ending, without decoding the answer. */
	readStream(): StreamReader;
	/** Where a whole answer of this format keeps its usage, read from the answer's end when it is passed through (see answer-usage.ts). */
	readonly answerUsage: AnswerUsage<IRUsage>;
	/** IR stream events → the text chunks a client of this format expects (SSE frames, or a JSON array for Gemini without alt=sse). */
	encodeStream(events: AsyncIterable<IRStreamEvent>, options: EncodeStreamOptions, ctx: TranslationContext): AsyncGenerator<string>;
	/** `encodeStream` as a synchronous step per event (stream-steps.ts), where the format has one: translated streams use it. */
	streamEncoder?(options: EncodeStreamOptions, ctx: TranslationContext): StreamEncoder;
	/** An upstream error answer (status + parsed body) → IR error, keeping the provider's message. */
	decodeError(status: number, body: unknown): IRError;
	/** A gateway or upstream error → this format's error body. */
	renderError(error: IRError): {readonly status: number; readonly body: JsonObject};
	/** The frame(s) that end a stream that failed after its first byte. */
	renderStreamError(error: IRError, options: {readonly sse: boolean}): string;
	/** The content type of a streamed answer. */
	streamContentType(options: {readonly sse: boolean}): string;
	/** Its routes, and whether an unrouted path (a 404) is one of its own. */
	readonly routes: readonly InboundRoute[];
	ownsPath(request: WireRequest): boolean;
	/** Where its clients put the key. */
	presentedKey(request: WireRequest): string | undefined;
	/** How well a channel suits it: 2 passes through unchanged, 1 the nearest translation, 0 any other. */
	affinity(channel: ChannelRecord): 0 | 1 | 2;
	/** The request forwarded to a channel of affinity 2. */
	passthrough(body: JsonObject, call: PassthroughCall): PassthroughRequest;
	encodeModelList(models: readonly ModelEntry[], request: WireRequest): JsonValue;
	encodeModel(model: ModelEntry): JsonValue;
	readonly counting?: InboundCounting;
	readonly embeddings?: InboundEmbeddings;
	readonly storedAnswers?: StoredAnswers;
};

/** A channel format: also encodes IR requests for its providers. */
export type FormatAdapter = InboundAdapter & {
	readonly format: Format;
	/** IR → upstream wire request for a channel of this format. */
	encodeRequest(request: IRRequest, target: UpstreamTarget, ctx: TranslationContext): Promise<EncodedRequest>;
	/** The provider's auth (and required version) headers for a channel's real key. */
	upstreamHeaders(apiKey: string | null): Record<string, string>;
	/** The provider's model list: the cheapest call that proves key and URL, and says which models it serves. */
	readonly modelList: ModelListCall;
	readonly upstreamCounting?: UpstreamCounting;
	readonly upstreamEmbeddings?: UpstreamEmbeddings;
};

/** What one page of a provider's model list says. */
export type ListedModels = {
	/** The model ids listed (Gemini's `models/` prefix taken off). */
	readonly ids: readonly string[];
	/** False when more pages follow, or the body was not a list this reader knows: then a model not listed may still be served. */
	readonly complete: boolean;
	/** Models the provider lists as deprecated (only Anthropic's list says): id → the retirement date it gives, or null. */
	readonly deprecated: ReadonlyMap<string, string | null>;
};

/**
 * The model-list call of a format: relative to the base URL, with the query that asks for everything
 * on one page; and `readOne`, which reads the answer for one model (`path`/ID in every format) — what
 * a name the list leaves out (an alias: xAI's `grok-4`) is asked by.
 */
export type ModelListCall = {
	readonly path: string;
	readonly query?: Readonly<Record<string, string>>;
	read(body: unknown): ListedModels;
	readOne(body: unknown): ListedModels;
};
