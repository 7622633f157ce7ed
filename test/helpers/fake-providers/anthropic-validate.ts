/**
 * Request validation of the fake Anthropic Messages API (`/v1/messages`, `/v1/messages/count_tokens`).
 * Error messages follow the real API's pydantic-style `path: message` texts where known
 * (`Extra inputs are not permitted`, `Field required`, the tool_use/tool_result pairing errors).
 * Version-aware: with `anthropic-version: 2026-10-21` temperature/top_p/top_k are removed.
 */
import {isBase64, isRecord} from './common.js';

export type AnthropicError = {status: number; type: string; message: string};

export const ANTHROPIC_VERSIONS = ['2023-01-01', '2023-06-01', '2026-10-21'];

const MESSAGE_PARAMS = [
	'model', 'messages', 'max_tokens', 'system', 'stop_sequences', 'stream', 'temperature', 'top_p', 'top_k', 'tools', 'tool_choice',
	'metadata', 'thinking', 'service_tier', 'container', 'mcp_servers', 'context_management', 'output_format', 'output_config',
	'cache_control', 'diagnostics', 'inference_geo', 'speed',
];
const COUNT_PARAMS = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking', 'mcp_servers', 'context_management', 'output_format', 'output_config', 'cache_control', 'speed'];
const BLOCK_TAGS = [
	'text', 'image', 'document', 'search_result', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'server_tool_use',
	'web_search_tool_result', 'web_fetch_tool_result', 'code_execution_tool_result', 'bash_code_execution_tool_result',
	'text_editor_code_execution_tool_result', 'tool_search_tool_result', 'container_upload',
];
const LOOSE_TAGS = new Set([...BLOCK_TAGS.slice(8), 'mcp_tool_use', 'mcp_tool_result', 'compaction']);
const BLOCK_KEYS: Record<string, string[]> = {
	text: ['type', 'text', 'cache_control', 'citations'],
	image: ['type', 'source', 'cache_control'],
	document: ['type', 'source', 'title', 'context', 'citations', 'cache_control'],
	search_result: ['type', 'source', 'title', 'content', 'citations', 'cache_control'],
	thinking: ['type', 'thinking', 'signature'],
	redacted_thinking: ['type', 'data'],
	tool_use: ['type', 'id', 'name', 'input', 'cache_control', 'caller'],
	tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
};
const TOOL_KEYS = ['type', 'name', 'description', 'input_schema', 'cache_control', 'strict', 'input_examples', 'defer_loading', 'eager_input_streaming', 'allowed_callers'];
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
const ASSISTANT_ONLY = new Set(['tool_use', 'thinking', 'redacted_thinking', 'server_tool_use']);

const bad = (message: string): AnthropicError => ({status: 400, type: 'invalid_request_error', message});
const tagError = (path: string, tag: unknown, tags: string[]): AnthropicError =>
	bad(`${path}: Input tag '${String(tag)}' found using 'type' does not match any of the expected tags: ${tags.map((t) => `'${t}'`).join(', ')}`);

function extraKeys(value: Record<string, unknown>, allowed: string[], path: string): AnthropicError | undefined {
	for (const key of Object.keys(value)) if (!allowed.includes(key)) return bad(`${path}.${key}: Extra inputs are not permitted`);
	return undefined;
}

function checkTextBlocks(blocks: unknown, path: string): AnthropicError | undefined {
	if (typeof blocks === 'string') return undefined;
	if (!Array.isArray(blocks)) return bad(`${path}: Input should be a valid list`);
	for (const [j, block] of blocks.entries()) {
		if (!isRecord(block)) return bad(`${path}.${j}: Input should be a valid dictionary`);
		if (block.type !== 'text') return bad(`${path}.${j}.type: Input should be 'text'`);
		const extra = extraKeys(block, BLOCK_KEYS.text, `${path}.${j}`);
		if (extra) return extra;
		if (typeof block.text !== 'string') return bad(`${path}.${j}.text: Field required`);
		if (block.text === '') return bad(`${path.split('.')[0]}: text content blocks must be non-empty`);
	}
	return undefined;
}

function checkBlock(block: unknown, role: string, path: string, version: string): AnthropicError | undefined {
	if (!isRecord(block)) return bad(`${path}: Input should be a valid dictionary or object to extract fields from`);
	const type = block.type;
	if (typeof type !== 'string') return bad(`${path}: Unable to extract tag using discriminator 'type'`);
	if (LOOSE_TAGS.has(type)) return undefined;
	if (!BLOCK_KEYS[type]) return tagError(path, type, BLOCK_TAGS);
	const extra = extraKeys(block, BLOCK_KEYS[type], `${path}.${type}`);
	if (extra) return extra;
	if (role === 'user' && ASSISTANT_ONLY.has(type)) return bad(`${path}: \`${type}\` blocks can only be in \`assistant\` messages`);
	if (role === 'assistant' && (type === 'tool_result' || type === 'image')) return bad(`${path}: \`${type}\` blocks can only be in \`user\` messages`);
	if (role === 'assistant' && type === 'document' && version === '2026-10-21') return bad(`${path}: \`document\` blocks are not supported in \`assistant\` messages`);
	switch (type) {
		case 'text':
			if (typeof block.text !== 'string') return bad(`${path}.text.text: Field required`);
			if (block.text === '') return bad('messages: text content blocks must be non-empty');
			if (role === 'user' && version === '2026-10-21' && Array.isArray(block.citations) && block.citations.length > 0) {
				return bad(`${path}.text.citations: citations are not supported on text blocks in \`user\` messages`);
			}
			return undefined;
		case 'image':
		case 'document': {
			const source = block.source;
			if (!isRecord(source)) return bad(`${path}.${type}.source: Field required`);
			if (type === 'image' && source.type === 'base64') {
				if (typeof source.media_type !== 'string' || !IMAGE_TYPES.includes(source.media_type)) {
					return bad(`${path}.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
				}
				if (typeof source.data !== 'string' || !isBase64(source.data)) return bad(`${path}.image.source.base64.data: Invalid base64 data`);
				return extraKeys(source, ['type', 'media_type', 'data'], `${path}.image.source.base64`);
			}
			if (source.type === 'url') {
				if (typeof source.url !== 'string') return bad(`${path}.${type}.source.url.url: Field required`);
				return extraKeys(source, ['type', 'url'], `${path}.${type}.source.url`);
			}
			const tags = type === 'image' ? ['base64', 'url', 'file'] : ['base64', 'text', 'content', 'url', 'file'];
			if (typeof source.type !== 'string' || !tags.includes(source.type)) return tagError(`${path}.${type}.source`, source.type, tags);
			return undefined;
		}
		case 'thinking':
			if (typeof block.thinking !== 'string') return bad(`${path}.thinking.thinking: Field required`);
			if (typeof block.signature !== 'string') return bad(`${path}.thinking.signature: Field required`);
			return undefined;
		case 'redacted_thinking':
			return typeof block.data === 'string' ? undefined : bad(`${path}.redacted_thinking.data: Field required`);
		case 'tool_use':
			if (typeof block.id !== 'string') return bad(`${path}.tool_use.id: Field required`);
			if (!ID_PATTERN.test(block.id)) return bad(`${path}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
			if (typeof block.name !== 'string') return bad(`${path}.tool_use.name: Field required`);
			if (!isRecord(block.input)) return bad(`${path}.tool_use.input: Input should be a valid dictionary`);
			return undefined;
		case 'tool_result': {
			if (typeof block.tool_use_id !== 'string') return bad(`${path}.tool_result.tool_use_id: Field required`);
			if (!ID_PATTERN.test(block.tool_use_id)) return bad(`${path}.tool_result.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
			if (block.is_error !== undefined && typeof block.is_error !== 'boolean') return bad(`${path}.tool_result.is_error: Input should be a valid boolean`);
			const content = block.content;
			if (content === undefined || typeof content === 'string') return undefined;
			if (!Array.isArray(content)) return bad(`${path}.tool_result.content: Input should be a valid list`);
			const inner = ['text', 'image', 'search_result', 'document', 'tool_reference'];
			for (const [k, item] of content.entries()) {
				const p = `${path}.tool_result.content.${k}`;
				if (!isRecord(item) || typeof item.type !== 'string' || !inner.includes(item.type)) return tagError(p, isRecord(item) ? item.type : item, inner);
				if (item.type !== 'tool_reference') {
					const error = checkBlock(item, 'user', p, version);
					if (error) return error;
				}
			}
			return undefined;
		}
		default:
			return undefined;
	}
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
	return Array.isArray(content) ? content.filter(isRecord) : [];
}

function checkMessages(messages: unknown[], version: string): AnthropicError | undefined {
	if (messages.length === 0) return bad('messages: List should have at least 1 item after validation, not 0');
	const turns: Array<{index: number; role: string; content: unknown}> = [];
	for (const [i, message] of messages.entries()) {
		const path = `messages.${i}`;
		if (!isRecord(message)) return bad(`${path}: Input should be a valid dictionary or object to extract fields from`);
		const role = message.role;
		if (role !== 'user' && role !== 'assistant' && role !== 'system') return bad(`${path}.role: Input should be 'user', 'assistant' or 'system'`);
		const extra = extraKeys(message, ['role', 'content'], path);
		if (extra) return extra;
		if (message.content === undefined) return bad(`${path}.content: Field required`);
		if (role === 'system') {
			const error = checkTextBlocks(message.content, `${path}.content`);
			if (error) return error;
			continue;
		}
		const content = message.content;
		const isLast = i === messages.length - 1;
		if ((content === '' || (Array.isArray(content) && content.length === 0)) && !(isLast && role === 'assistant')) {
			return bad(`${path}: all messages must have non-empty content except for the optional final assistant message`);
		}
		if (typeof content !== 'string') {
			if (!Array.isArray(content)) return bad(`${path}.content: Input should be a valid string`);
			for (const [j, block] of content.entries()) {
				const error = checkBlock(block, role, `${path}.content.${j}`, version);
				if (error) return error;
			}
		}
		turns.push({index: i, role, content});
	}
	if (turns.length > 0 && turns[0].role !== 'user') return bad('messages: first message must use the "user" role');
	for (const [t, turn] of turns.entries()) {
		const previous = t > 0 ? turns[t - 1] : undefined;
		const next = turns[t + 1];
		if (turn.role === 'user') {
			const offered = new Set(previous?.role === 'assistant' ? blocksOf(previous.content).filter((b) => b.type === 'tool_use').map((b) => String(b.id)) : []);
			for (const [j, block] of blocksOf(turn.content).entries()) {
				if (block.type === 'tool_result' && !offered.has(String(block.tool_use_id))) {
					return bad(
						`messages.${turn.index}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
					);
				}
			}
		} else if (next) {
			const answered = new Set(next.role === 'user' ? blocksOf(next.content).filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)) : []);
			const missing = blocksOf(turn.content).filter((b) => b.type === 'tool_use' && !answered.has(String(b.id))).map((b) => String(b.id));
			if (missing.length > 0) {
				return bad(
					`messages.${turn.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
				);
			}
		}
	}
	return undefined;
}

function checkTools(body: Record<string, unknown>): AnthropicError | undefined {
	const names = new Set<string>();
	if (body.tools !== undefined) {
		if (!Array.isArray(body.tools)) return bad('tools: Input should be a valid list');
		for (const [i, tool] of body.tools.entries()) {
			const path = `tools.${i}`;
			if (!isRecord(tool)) return bad(`${path}: Input should be a valid dictionary or object to extract fields from`);
			if (typeof tool.type === 'string' && tool.type !== 'custom') {
				if (typeof tool.name !== 'string') return bad(`${path}.${tool.type}.name: Field required`);
				names.add(tool.name);
				continue;
			}
			const extra = extraKeys(tool, TOOL_KEYS, `${path}.custom`);
			if (extra) return extra;
			if (typeof tool.name !== 'string') return bad(`${path}.custom.name: Field required`);
			if (!/^[a-zA-Z0-9_-]{1,128}$/.test(tool.name)) return bad(`${path}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
			if (tool.description !== undefined && typeof tool.description !== 'string') return bad(`${path}.custom.description: Input should be a valid string`);
			if (!isRecord(tool.input_schema)) return bad(`${path}.custom.input_schema: Field required`);
			if (tool.input_schema.type !== 'object') return bad(`${path}.custom.input_schema.type: Input should be 'object'`);
			if (names.has(tool.name)) return bad('tools: Tool names must be unique.');
			names.add(tool.name);
		}
	}
	const choice = body.tool_choice;
	if (choice === undefined) return undefined;
	if (!isRecord(choice)) return bad('tool_choice: Input should be a valid dictionary or object to extract fields from');
	const tags = ['auto', 'any', 'tool', 'none'];
	if (typeof choice.type !== 'string' || !tags.includes(choice.type)) return tagError('tool_choice', choice.type, tags);
	const extra = extraKeys(choice, choice.type === 'tool' ? ['type', 'name', 'disable_parallel_tool_use'] : choice.type === 'none' ? ['type'] : ['type', 'disable_parallel_tool_use'], `tool_choice.${choice.type}`);
	if (extra) return extra;
	if (body.tools === undefined && choice.type !== 'none') return bad('tool_choice may only be specified while providing tools.');
	if (choice.type === 'tool') {
		if (typeof choice.name !== 'string') return bad('tool_choice.tool.name: Field required');
		if (!names.has(choice.name)) return bad(`tool_choice.tool.name: Tool '${choice.name}' not found in tools`);
	}
	return undefined;
}

function checkThinking(body: Record<string, unknown>, countTokens: boolean, interleaved: boolean): AnthropicError | undefined {
	const thinking = body.thinking;
	if (thinking === undefined) return undefined;
	const tags = ['adaptive', 'between_tools', 'disabled', 'enabled'];
	if (!isRecord(thinking) || typeof thinking.type !== 'string' || !tags.includes(thinking.type)) return tagError('thinking', isRecord(thinking) ? thinking.type : thinking, tags);
	const allowed = thinking.type === 'enabled' ? ['type', 'budget_tokens', 'display'] : thinking.type === 'adaptive' ? ['type', 'display'] : ['type'];
	const extra = extraKeys(thinking, allowed, `thinking.${thinking.type}`);
	if (extra) return extra;
	if (thinking.type !== 'enabled') return undefined;
	const budget = thinking.budget_tokens;
	if (budget === undefined) return bad('thinking.enabled.budget_tokens: Field required');
	if (!Number.isInteger(budget)) return bad('thinking.enabled.budget_tokens: Input should be a valid integer');
	if (Number(budget) < 1024) return bad('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
	if (!countTokens && !interleaved && typeof body.max_tokens === 'number' && body.max_tokens <= Number(budget)) {
		return bad('`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size');
	}
	if (isRecord(body.tool_choice) && (body.tool_choice.type === 'any' || body.tool_choice.type === 'tool')) return bad('Thinking may not be enabled when tool_choice forces tool use.');
	if (body.temperature !== undefined && body.temperature !== 1) {
		return bad('`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility');
	}
	return undefined;
}

/** Validate a messages / count_tokens body. Model existence (404) is checked by the caller afterwards. */
export function validateAnthropicBody(body: unknown, opts: {countTokens: boolean; version: string; betas: string}): AnthropicError | undefined {
	if (!isRecord(body)) return bad('Input should be a valid dictionary or object to extract fields from');
	let known = opts.countTokens ? COUNT_PARAMS : MESSAGE_PARAMS;
	if (opts.version === '2026-10-21') known = known.filter((k) => k !== 'temperature' && k !== 'top_p' && k !== 'top_k');
	for (const key of Object.keys(body)) if (!known.includes(key)) return bad(`${key}: Extra inputs are not permitted`);
	if (body.model === undefined) return bad('model: Field required');
	if (typeof body.model !== 'string') return bad('model: Input should be a valid string');
	if (body.messages === undefined) return bad('messages: Field required');
	if (!Array.isArray(body.messages)) return bad('messages: Input should be a valid list');
	if (!opts.countTokens) {
		if (body.max_tokens === undefined) return bad('max_tokens: Field required');
		if (!Number.isInteger(body.max_tokens)) return bad('max_tokens: Input should be a valid integer');
		if (Number(body.max_tokens) < 0) return bad('max_tokens: Input should be greater than or equal to 0');
	}
	for (const name of ['temperature', 'top_p'] as const) {
		const value = body[name];
		if (value === undefined) continue;
		if (typeof value !== 'number') return bad(`${name}: Input should be a valid number`);
		if (value > 1) return bad(`${name}: Input should be less than or equal to 1`);
		if (value < 0) return bad(`${name}: Input should be greater than or equal to 0`);
	}
	if (body.top_k !== undefined && (!Number.isInteger(body.top_k) || Number(body.top_k) < 0)) return bad('top_k: Input should be greater than or equal to 0');
	if (body.stream !== undefined && typeof body.stream !== 'boolean') return bad('stream: Input should be a valid boolean');
	if (body.stop_sequences !== undefined && !(Array.isArray(body.stop_sequences) && body.stop_sequences.every((s) => typeof s === 'string'))) {
		return bad('stop_sequences: Input should be a valid list');
	}
	if (body.system !== undefined) {
		const error = checkTextBlocks(body.system, 'system');
		if (error) return error;
	}
	return (
		checkMessages(body.messages, opts.version) ??
		checkTools(body) ??
		checkThinking(body, opts.countTokens, opts.betas.includes('interleaved-thinking'))
	);
}
