import type {TranslationContext} from '../adapter.js';
import {assertNever, type IRCacheControl, type IRImageSource, type IRMessage, type IRSignature, type IRSystemBlock, type IRToolResultPart, type JsonObject, type JsonValue} from '../../base/ir.js';
import {compact} from '../wire.js';

/** IR image → an OpenAI `image_url` content part. @see https://platform.openai.com/docs/guides/images-vision */
export function encodeOpenaiImagePart(source: IRImageSource): JsonObject {
	const url = source.kind === 'base64' ? `data:${source.mediaType};base64,${source.data}` : source.url;
	return {type: 'image_url', image_url: {url}};
}

export type MessageOptions = {
	/** Send prior reasoning back as `reasoning_content` (DeepSeek requires it after tool calls; api.openai.com rejects it). */
	readonly reasoningContent: boolean;
	/** Map a tool-call id to one the upstream accepts (OpenAI caps ids at 40 characters). */
	readonly toolCallId: (id: string) => string;
	/** Keep prompt-cache markers as `cache_control` on content parts (OpenRouter); elsewhere they are dropped. */
	readonly cacheMarkers: boolean;
};

/** `cache_control` for a content part, in Anthropic's shape, where the channel honours it. */
function marker(cache: IRCacheControl | undefined, options: MessageOptions): JsonObject {
	if (!cache || !options.cacheMarkers) return {};
	return {cache_control: cache.ttl === undefined ? {type: 'ephemeral'} : {type: 'ephemeral', ttl: cache.ttl}};
}

/** OpenAI chat has no signature slot: every signature here belongs to another provider and is lost. */
function dropSignature(signature: IRSignature | undefined, what: string, ctx: TranslationContext): void {
	if (signature && signature.value !== '') {
		ctx.warn(`Dropped a ${signature.format} signature on ${what}: OpenAI chat completions has no field for it.`);
	}
}

function toolResultText(result: IRToolResultPart): string {
	return result.content.flatMap(part => (part.type === 'text' ? [part.text] : [])).join('\n');
}

/**
 * Tool results → `tool` messages, which must directly follow the assistant message with the calls.
 * OpenAI tool messages take text only, so images in a result follow in a user message.
 * @see https://platform.openai.com/docs/guides/function-calling#handling-function-calls
 */
function encodeToolResults(results: readonly IRToolResultPart[], options: MessageOptions): JsonObject[] {
	const out: JsonObject[] = results.map(result => {
		// Where markers count, always a one-part array (markers live on parts), so a result keeps
		// its bytes when Claude Code moves the marker off it on the next turn.
		const content = options.cacheMarkers ? [{type: 'text', text: toolResultText(result), ...marker(result.cache, options)}] : toolResultText(result);
		return {role: 'tool', tool_call_id: options.toolCallId(result.toolCallId), content};
	});
	for (const result of results) {
		const images = result.content.flatMap(part => (part.type === 'image' ? [encodeOpenaiImagePart(part.source)] : []));
		if (images.length === 0) continue;
		out.push({role: 'user', content: [{type: 'text', text: `Images returned by tool call ${result.toolCallId}:`}, ...images]});
	}
	return out;
}

function encodeUser(message: IRMessage, options: MessageOptions, ctx: TranslationContext): JsonObject[] {
	const results: IRToolResultPart[] = [];
	const content: JsonObject[] = [];
	for (const part of message.parts) {
		switch (part.type) {
			case 'tool_result':
				results.push(part);
				break;
			case 'text':
				dropSignature(part.signature, 'user text', ctx);
				content.push({type: 'text', text: part.text, ...marker(part.cache, options)});
				break;
			case 'image':
				content.push({...encodeOpenaiImagePart(part.source), ...marker(part.cache, options)});
				break;
			case 'tool_call':
			case 'reasoning':
				ctx.warn(`Dropped a ${part.type} part from a user message: OpenAI user messages cannot carry it.`);
				break;
			default:
				assertNever(part, 'IR part');
		}
	}
	const out = encodeToolResults(results, options);
	// Where markers count, content stays an array, so a turn keeps its bytes when the marker moves on to the next one.
	if (content.length === 1 && content[0].type === 'text' && !options.cacheMarkers) out.push({role: 'user', content: content[0].text});
	else if (content.length > 0) out.push({role: 'user', content});
	return out;
}

function encodeAssistant(message: IRMessage, options: MessageOptions, ctx: TranslationContext): JsonObject[] {
	const texts: string[] = [];
	const reasoning: string[] = [];
	const toolCalls: JsonObject[] = [];
	for (const part of message.parts) {
		switch (part.type) {
			case 'text':
				dropSignature(part.signature, 'assistant text', ctx);
				texts.push(part.text);
				break;
			case 'reasoning':
				dropSignature(part.signature, 'reasoning', ctx);
				if (part.redacted) ctx.warn('Dropped redacted reasoning: OpenAI chat completions cannot carry it.');
				if (part.text) reasoning.push(part.text);
				break;
			case 'tool_call':
				dropSignature(part.signature, `tool call ${part.id}`, ctx);
				toolCalls.push({id: options.toolCallId(part.id), type: 'function', function: {name: part.name, arguments: part.arguments}});
				break;
			case 'image':
			case 'tool_result':
				ctx.warn(`Dropped a ${part.type} part from an assistant message: OpenAI assistant messages cannot carry it.`);
				break;
			default:
				assertNever(part, 'IR part');
		}
	}
	if (reasoning.length > 0 && !options.reasoningContent) {
		ctx.warn('Dropped earlier reasoning text: api.openai.com chat completions does not accept it back.');
	}
	const entries: {[key: string]: JsonValue | undefined} = {
		role: 'assistant',
		// `content` is required unless there are tool calls; null then, as the API itself answers.
		content: texts.length > 0 ? texts.join('') : toolCalls.length > 0 ? null : '',
		reasoning_content: options.reasoningContent && reasoning.length > 0 ? reasoning.join('\n\n') : undefined,
		tool_calls: toolCalls.length > 0 ? toolCalls : undefined,
	};
	return [compact(entries)];
}

/** One text, or, where a block carries a cache marker the channel honours, one part per block. */
function encodeSystem(system: readonly IRSystemBlock[], options: MessageOptions): JsonValue {
	if (!options.cacheMarkers || !system.some(block => block.cache)) return system.map(block => block.text).join('\n\n');
	return system.map(block => ({type: 'text', text: block.text, ...marker(block.cache, options)}));
}

/**
 * IR system blocks and messages → OpenAI `messages`. The system prompt is one `system` message
 * (not `developer`: most compatible servers only know `system`, and OpenAI maps it for o1 and later);
 * blocks are joined because some chat templates reject more than one system message.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export function encodeOpenaiMessages(system: readonly IRSystemBlock[], messages: readonly IRMessage[], options: MessageOptions, ctx: TranslationContext): JsonObject[] {
	const out: JsonObject[] = [];
	if (system.length > 0) out.push({role: 'system', content: encodeSystem(system, options)});
	for (const message of messages) {
		out.push(...(message.role === 'user' ? encodeUser(message, options, ctx) : encodeAssistant(message, options, ctx)));
	}
	return out;
}
