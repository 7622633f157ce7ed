/**
 * IR stream events → the SSE frames an OpenAI chat completions client reads.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming/streaming
 */
import type {EncodeStreamOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRCitation, type IRError, type IRFinishReason, type IRStreamEvent, type IRUsage, type JsonObject} from '../../base/ir.js';
import {sseFrame} from '../sse.js';
import {encodeWith, stepEncoder, type StreamEncoder} from '../stream-steps.js';
import {encodeOpenaiUsage} from './map-openai-usage.js';
import {renderOpenAIError} from './errors.js';
import {newResponseId, toChatCompletionId} from './ids.js';
import {toOpenaiFinishReason} from './map-openai-finish-reason.js';
import {encodeOpenaiAnnotation} from './map-openai-citations.js';

/** The encoder's state: created per stream inside the generator, never shared between streams. */
type State = {
	id: string;
	readonly created: number;
	readonly options: EncodeStreamOptions;
	started: boolean;
	/** IR block index → OpenAI `tool_calls[].index`, call id, and whether an argument piece went out. */
	readonly tools: Map<number, {index: number; id: string; sentArguments: boolean}>;
	warnedSignature: boolean;
	/** Characters of content written so far, and where each text block began: citation ranges count from them. */
	textLength: number;
	readonly texts: Map<number, {start: number; citations: IRCitation[]}>;
	/** The chunk's fields before `choices`, as JSON text: the same in every chunk until the id changes. */
	head: string | null;
};

const done = 'data: [DONE]\n\n';

/**
 * One chunk's frame: `{id, object, created, model, choices[, usage]}` — JSON.stringify's own text
 * of that object, written from parts: the fields before `choices` are the same in every chunk of a
 * stream and are encoded once (a translated stream's chunks were most of its encoding time).
 */
function chunk(state: State, choicesJson: string, usage?: JsonObject): string {
	state.head ??= `{"id":${JSON.stringify(state.id)},"object":"chat.completion.chunk","created":${state.created},"model":${JSON.stringify(state.options.model)},"choices":`;
	// With include_usage every chunk carries `usage`, null except on the last one.
	const tail = state.options.includeUsage ? `,"usage":${JSON.stringify(usage ?? null)}}` : '}';
	// JSON text has no raw line breaks: one data line.
	return `data: ${state.head}${choicesJson}${tail}\n\n`;
}

function deltaChunk(state: State, delta: JsonObject, finishReason: string | null = null): string {
	return chunk(state, `[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finishReason)}}]`);
}

/** deltaChunk(state, {content: text}), the same text. */
function textChunk(state: State, text: string): string {
	return chunk(state, `[{"index":0,"delta":{"content":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]`);
}

/** The first chunk announces the role, like the real API's (`content: ""`, `refusal: null`). */
function start(state: State, id?: string): string[] {
	if (id) {
		state.id = toChatCompletionId(id);
		state.head = null;
	}
	if (state.started) return [];
	state.started = true;
	return [deltaChunk(state, {role: 'assistant', content: '', refusal: null})];
}

function finish(state: State, reason: IRFinishReason, usage: IRUsage): string[] {
	const frames = [deltaChunk(state, {}, toOpenaiFinishReason(reason, state.tools.size > 0))];
	if (state.options.includeUsage) frames.push(chunk(state, '[]', encodeOpenaiUsage(usage)));
	frames.push(done);
	return frames;
}

function toolStart(state: State, block: number, id: string, name: string): string[] {
	const index = state.tools.size;
	state.tools.set(block, {index, id, sentArguments: false});
	return [deltaChunk(state, {tool_calls: [{index, id, type: 'function', function: {name, arguments: ''}}]})];
}

function toolArgs(state: State, block: number, json: string): string[] {
	const tool = state.tools.get(block);
	if (!tool || json === '') return [];
	tool.sentArguments = true;
	return [deltaChunk(state, {tool_calls: [{index: tool.index, function: {arguments: json}}]})];
}

/** A text block's citations go out when it ends, when their range is known, as one `delta.annotations` chunk. */
function textEnd(state: State, block: number): string[] {
	const text = state.texts.get(block);
	if (!text || text.citations.length === 0) return [];
	const annotations = text.citations.map(citation => encodeOpenaiAnnotation(citation, text.start, state.textLength - text.start));
	return [deltaChunk(state, {annotations})];
}

/**
 * A call that ended without arguments (Claude streams no `input_json_delta` for `get_time()`) gets
 * `"{}"`, as OpenAI itself streams it: clients concatenate the pieces and JSON.parse the result.
 */
function toolEnd(state: State, block: number): string[] {
	const tool = state.tools.get(block);
	return tool && !tool.sentArguments ? toolArgs(state, block, '{}') : [];
}

/** Tool-call signatures are remembered by call id (OpenAI has no slot); others are lost, said once. */
function signature(state: State, event: Extract<IRStreamEvent, {type: 'signature'}>, ctx: TranslationContext): string[] {
	const tool = state.tools.get(event.index);
	if (tool) ctx.signatures.remember(tool.id, event.signature);
	else if (!state.warnedSignature && event.signature.value !== '') {
		state.warnedSignature = true;
		ctx.warn(`Dropped a ${event.signature.format} reasoning signature: OpenAI chat completions has no field for it.`);
	}
	return [];
}

const errorFrames = (error: IRError): string[] => [sseFrame(JSON.stringify(renderOpenAIError(error).body)), done];

function framesFor(state: State, event: IRStreamEvent, ctx: TranslationContext): string[] {
	switch (event.type) {
		case 'start':
			return start(state, event.id);
		case 'block-start':
			if (event.block.kind === 'text') state.texts.set(event.index, {start: state.textLength, citations: []});
			return event.block.kind === 'tool_call' ? [...start(state), ...toolStart(state, event.index, event.block.id, event.block.name)] : [];
		case 'text-delta':
			state.textLength += event.text.length;
			if (event.text === '') return [];
			// The commonest event, built without the arrays and the delta object of the general path.
			return state.started ? [textChunk(state, event.text)] : [...start(state), textChunk(state, event.text)];
		case 'citation':
			state.texts.get(event.index)?.citations.push(event.citation);
			return [];
		case 'reasoning-delta':
			// DeepSeek's field; the official SDK passes unknown delta fields through untouched.
			return event.text === '' ? [] : [...start(state), deltaChunk(state, {reasoning_content: event.text})];
		case 'tool-args-delta':
			return toolArgs(state, event.index, event.json);
		case 'signature':
			return signature(state, event, ctx);
		case 'redacted-reasoning':
			ctx.warn('Dropped redacted reasoning: OpenAI chat completions cannot show it.');
			return [];
		case 'block-end':
			return [...toolEnd(state, event.index), ...textEnd(state, event.index)];
		case 'usage':
			return [];
		case 'finish':
			return [...start(state), ...finish(state, event.reason, event.usage)];
		case 'error':
			return errorFrames(event.error);
		default:
			return assertNever(event, 'stream event');
	}
}

/**
 * IR events → OpenAI SSE frames: a role chunk, content / reasoning_content / tool_calls deltas
 * (first delta of a call: index, id, type, name, arguments ""; then index + argument pieces), a
 * finish chunk, the usage chunk (`choices: []`) only if the client asked for it, `data: [DONE]`.
 * A mid-stream error is a `data: {"error":{…}}` frame, then `[DONE]`, as the API itself does.
 */
export function encodeOpenaiStream(events: AsyncIterable<IRStreamEvent>, options: EncodeStreamOptions, ctx: TranslationContext): AsyncGenerator<string> {
	return encodeWith(openaiStreamEncoder(options, ctx), events);
}

/** The same, one event at a time (stream-steps.ts); the frames of one event are one piece of text. */
export function openaiStreamEncoder(options: EncodeStreamOptions, ctx: TranslationContext): StreamEncoder {
	const state: State = {
		id: newResponseId(),
		created: Math.floor(Date.now() / 1000),
		options,
		started: false,
		tools: new Map(),
		warnedSignature: false,
		textLength: 0,
		texts: new Map(),
		head: null,
	};
	return stepEncoder(
		event => {
			const frames = framesFor(state, event, ctx);
			return frames.length === 1 ? frames[0]! : frames.join('');
		},
		() => errorFrames({kind: 'upstream', status: 502, message: 'The upstream stream ended before the answer was complete.'}).join(''),
	);
}
