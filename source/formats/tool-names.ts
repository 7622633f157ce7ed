/**
 * Tool names every provider accepts. OpenAI and Anthropic take `^[a-zA-Z0-9_-]{1,64}$`, Gemini also
 * wants a letter or underscore first; clients send longer or other names (Claude Code's
 * `mcp__server__tool` names past 64 characters, dotted MCP names, Codex namespaces flattened as
 * `namespace__name`). Such a name goes upstream as an alias — the name with other characters made
 * `_`, shortened with a hash of the whole name when too long — and comes back under its own name.
 * Aliases depend only on the name, so the same request is sent the same way every turn (a provider's
 * prompt cache keeps matching); the map lives on the request's TranslationContext, never in the module.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#specifying-client-tools
 * @see https://ai.google.dev/api/caching#FunctionDeclaration
 */
import {createHash} from 'node:crypto';
import type {IRPart, IRRequest, IRResponse, IRStreamEvent} from '../base/ir.js';
import type {FormatAdapter, TranslationContext} from './adapter.js';
import type {SseMessage} from './sse.js';
import type {StreamDecoder} from './stream-steps.js';

const maxLength = 64;
const valid = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Wire alias ↔ client name, for one request. */
export class ToolNameMap {
	// Made with the first name: every translated request has a map, most have no tools.
	private originals: Map<string, string> | null = null;
	private aliases: Map<string, string> | null = null;
	/** Whether any name was changed on its way upstream (an answer needs its names restored only then). */
	renamed = false;

	/** The name to send upstream for a client's tool name. */
	alias(name: string): string {
		const aliases = (this.aliases ??= new Map());
		const originals = (this.originals ??= new Map());
		const known = aliases.get(name);
		if (known !== undefined) return known;
		let alias = valid.test(name) ? name : shorten(name);
		// A client name that happens to equal another name's alias keeps the alias unique.
		if (originals.has(alias) && originals.get(alias) !== name) alias = shorten(`${name}\u0000${originals.size}`);
		aliases.set(name, alias);
		originals.set(alias, name);
		if (alias !== name) this.renamed = true;
		return alias;
	}

	/** The client's name for a name the provider answered with (unknown names are the provider's own). */
	original(alias: string): string {
		return this.originals?.get(alias) ?? alias;
	}
}

function shorten(name: string): string {
	const safe = name.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^(?=[^A-Za-z_])/, '_');
	if (safe.length <= maxLength && safe !== name) return safe;
	const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
	return `${safe.slice(0, maxLength - hash.length - 1)}_${hash}`;
}

/** The request's name map, created on first use: one per TranslationContext, so per request. */
export function toolNamesOf(ctx: TranslationContext): ToolNameMap {
	ctx.toolNames ??= new ToolNameMap();
	return ctx.toolNames;
}

/** The part with its tool name as the alias: the part itself when it has none or the name stays. */
function renamePart(part: IRPart, names: ToolNameMap): IRPart {
	if (part.type === 'tool_call') {
		const name = names.alias(part.name);
		return name === part.name ? part : {...part, name};
	}
	if (part.type === 'tool_result' && part.name !== undefined) {
		const name = names.alias(part.name);
		return name === part.name ? part : {...part, name};
	}
	return part;
}

/** The items with `rename` applied: the same array when nothing changed, else a copy with the changed ones. */
function renamed<T>(items: readonly T[], rename: (item: T) => T): readonly T[] {
	let out: T[] | undefined;
	for (let index = 0; index < items.length; index++) {
		const item = items[index]!;
		const next = rename(item);
		if (next !== item) (out ??= items.slice())[index] = next;
	}
	return out ?? items;
}

/**
 * A request with every tool name (declarations, choice, calls and results in the history) as its
 * alias. Only what changes is copied: most names are valid as they are, and a long conversation's
 * messages were all copied for each request (IR objects are never changed in place).
 */
export function aliasToolNames(request: IRRequest, names: ToolNameMap): IRRequest {
	const messages = renamed(request.messages, message => {
		const parts = renamed(message.parts, part => renamePart(part, names));
		return parts === message.parts ? message : {...message, parts};
	});
	const tools = renamed(request.tools, tool => {
		const name = names.alias(tool.name);
		return name === tool.name ? tool : {...tool, name};
	});
	const choice = request.toolChoice;
	const choiceName = choice?.type === 'tool' ? names.alias(choice.name) : undefined;
	const toolChoice = choice?.type === 'tool' && choiceName !== choice.name ? {...choice, name: choiceName!} : choice;
	if (messages === request.messages && tools === request.tools && toolChoice === choice) return request;
	return {...request, messages, tools, ...(toolChoice ? {toolChoice} : {})};
}

export function restoreToolNames(response: IRResponse, names: ToolNameMap): IRResponse {
	if (!names.renamed) return response;
	return {...response, parts: response.parts.map(part => (part.type === 'tool_call' ? {...part, name: names.original(part.name)} : part))};
}

/** A stream event with the client's own tool name back in a tool call's start. */
function restoreEventToolName(event: IRStreamEvent, names: ToolNameMap): IRStreamEvent {
	return event.type === 'block-start' && event.block.kind === 'tool_call' ? {...event, block: {...event.block, name: names.original(event.block.name)}} : event;
}

export async function* restoreStreamToolNames(events: AsyncIterable<IRStreamEvent>, names: ToolNameMap): AsyncGenerator<IRStreamEvent> {
	for await (const event of events) yield restoreEventToolName(event, names);
}

/** The step form of restoreStreamToolNames: the decoder itself when no name was renamed. */
function restoreToolNamesStep(decoder: StreamDecoder, names: ToolNameMap): StreamDecoder {
	return names.renamed ? new RestoringDecoder(decoder, names) : decoder;
}

/** A class, not an object literal with a getter: see StepEncoder in stream-steps.ts. */
class RestoringDecoder implements StreamDecoder {
	constructor(
		private readonly decoder: StreamDecoder,
		private readonly names: ToolNameMap,
	) {}

	get done(): boolean {
		return this.decoder.done;
	}

	push(message: SseMessage): IRStreamEvent[] {
		return this.restore(this.decoder.push(message));
	}

	end(): IRStreamEvent[] {
		return this.restore(this.decoder.end());
	}

	private restore(events: IRStreamEvent[]): IRStreamEvent[] {
		return events.map(event => restoreEventToolName(event, this.names));
	}
}

/**
 * A channel adapter whose requests carry aliases and whose answers carry the client's names back.
 * Wrapped once in the adapter table, so no format's encoder or decoder needs to know.
 */
export function withToolNameAliases(adapter: FormatAdapter): FormatAdapter {
	const counting = adapter.upstreamCounting;
	return {
		...adapter,
		encodeRequest: (request, target, ctx) => adapter.encodeRequest(aliasToolNames(request, toolNamesOf(ctx)), target, ctx),
		decodeResponse: (body, ctx) => restoreToolNames(adapter.decodeResponse(body, ctx), toolNamesOf(ctx)),
		// The request was encoded first, so its map is complete: a stream whose names were all kept is not wrapped.
		decodeStream: (messages, ctx) => {
			const names = toolNamesOf(ctx);
			const events = adapter.decodeStream(messages, ctx);
			return names.renamed ? restoreStreamToolNames(events, names) : events;
		},
		...(adapter.streamDecoder ? {streamDecoder: ctx => restoreToolNamesStep(adapter.streamDecoder!(ctx), toolNamesOf(ctx))} : {}),
		...(counting ? {upstreamCounting: {...counting, encodeRequest: (request, target, ctx) => counting.encodeRequest(aliasToolNames(request, toolNamesOf(ctx)), target, ctx)}} : {}),
	};
}
