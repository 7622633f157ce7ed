/**
 * IR messages → Anthropic `messages`, applying the API's turn rules.
 * @see https://docs.anthropic.com/en/api/messages#body-messages
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks
 */
import type {TranslationContext} from '../adapter.js';
import type {IRMessage} from '../../base/ir.js';
import {encodeAnthropicPart} from './encode-anthropic-part.js';
import type {AnthropicContentBlock, AnthropicMessage, AnthropicToolResultBlock} from './schema.js';

type Role = AnthropicMessage['role'];

/** What litellm and others send when a conversation must open with a user turn. */
export const continueText = 'Please continue.';

export function encodeAnthropicMessages(messages: readonly IRMessage[], ctx: TranslationContext): AnthropicMessage[] {
	const turns: AnthropicMessage[] = [];
	for (const message of messages) addTurns(turns, message, ctx);
	const paired = pairToolResults(turns, ctx);
	// The API long refused an assistant opening ("first message must use the user role") and
	// Anthropic-compatible servers still do; today's API only tolerates it.
	if (paired.length === 0 || paired[0].role !== 'user') paired.unshift({role: 'user', content: [{type: 'text', text: continueText}]});
	trimFinalAssistant(paired);
	return paired;
}

/**
 * One IR message → its turn, or two when an assistant message carries tool results (they belong to
 * the user), each merged into the turn before it when that has the same role. Plain loops: every
 * message of every request translated for an Anthropic channel goes through here.
 */
function addTurns(turns: AnthropicMessage[], message: IRMessage, ctx: TranslationContext): void {
	const own: AnthropicContentBlock[] = [];
	const results: AnthropicContentBlock[] = [];
	for (const part of message.parts) {
		const block = encodeAnthropicPart(part, ctx);
		if (!block) continue;
		if (block.type === 'tool_result') results.push(block);
		else if (allowedIn(message.role, block)) own.push(block);
		else ctx.warn(`A ${block.type} block cannot appear in a ${message.role} turn for Anthropic: dropped.`);
	}
	if (message.role === 'user') return addTurn(turns, 'user', results.length === 0 ? own : [...results, ...own]);
	addTurn(turns, 'assistant', own);
	addTurn(turns, 'user', results);
}

function allowedIn(role: Role, block: AnthropicContentBlock): boolean {
	if (role === 'user') return block.type === 'text' || block.type === 'image';
	return block.type !== 'image';
}

/** A turn with content, merged into the last one when the roles match. */
function addTurn(turns: AnthropicMessage[], role: Role, content: AnthropicContentBlock[]): void {
	if (content.length === 0) return;
	const last = turns[turns.length - 1];
	if (last && last.role === role) turns[turns.length - 1] = {role, content: [...last.content, ...content]};
	else turns.push({role, content});
}

/**
 * Every `tool_result` must answer a `tool_use` of the assistant turn right before it, and every such
 * `tool_use` needs its result there, results first. Orphan results become text; missing ones are
 * filled with an error result so the API accepts the history.
 */
function pairToolResults(turns: readonly AnthropicMessage[], ctx: TranslationContext): AnthropicMessage[] {
	const out: AnthropicMessage[] = [];
	for (let index = 0; index < turns.length; index++) {
		const turn = turns[index];
		// Turns alternate after merging, so a user turn's predecessor is the assistant turn it answers.
		const previous = turns[index - 1];
		if (turn.role === 'assistant') out.push(turn);
		else out.push(answerTurn(previous ? toolUseIds(previous) : [], turn, ctx));
	}
	return out;
}

function toolUseIds(turn: AnthropicMessage): string[] {
	const ids: string[] = [];
	for (const block of turn.content) if (block.type === 'tool_use') ids.push(block.id);
	return ids;
}

function answerTurn(callIds: readonly string[], turn: AnthropicMessage, ctx: TranslationContext): AnthropicMessage {
	const {content} = turn;
	// Nothing to pair (most turns): the turn as it is.
	if (callIds.length === 0 && !content.some(block => block.type === 'tool_result')) return turn;
	const results: AnthropicToolResultBlock[] = [];
	const rest: AnthropicContentBlock[] = [];
	for (const block of content) {
		if (block.type !== 'tool_result') rest.push(block);
		else if (callIds.includes(block.tool_use_id)) results.push(block);
		else rest.push(orphanAsText(block, ctx));
	}
	const answered = new Set(results.map(block => block.tool_use_id));
	for (const id of callIds) {
		if (answered.has(id)) continue;
		ctx.warn(`Tool call ${id} had no result in the history; sent an error result so Anthropic accepts the conversation.`);
		results.push({type: 'tool_result', tool_use_id: id, content: [{type: 'text', text: 'No result was recorded for this tool call.'}], is_error: true});
	}
	// In the order of the calls, whatever order the client sent them in (a stable sort keeps duplicates as sent).
	results.sort((a, b) => callIds.indexOf(a.tool_use_id) - callIds.indexOf(b.tool_use_id));
	return {role: 'user', content: [...results, ...rest]};
}

function orphanAsText(block: AnthropicToolResultBlock, ctx: TranslationContext): AnthropicContentBlock {
	ctx.warn(`The result for tool call ${block.tool_use_id} answers no tool call of the previous assistant turn; sent as text.`);
	const text = (block.content ?? []).flatMap(item => (item.type === 'text' ? [item.text] : [])).join('\n');
	return {type: 'text', text: `Result of tool call ${block.tool_use_id}${block.is_error ? ' (error)' : ''}:\n${text}`};
}

/** A final assistant turn is a prefill, and the API rejects prefills that end with whitespace. */
function trimFinalAssistant(turns: AnthropicMessage[]): void {
	const last = turns.at(-1);
	if (last?.role !== 'assistant') return;
	const block = last.content.at(-1);
	if (block?.type !== 'text') return;
	const text = block.text.trimEnd();
	last.content = text === '' ? last.content.slice(0, -1) : [...last.content.slice(0, -1), {...block, text}];
	if (last.content.length === 0) turns.pop();
}
