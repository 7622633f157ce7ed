/**
 * Request validation of the fake OpenAI Chat Completions API. Messages follow the real API's error
 * bodies (`Unrecognized request argument supplied`, `Missing required parameter`, `Invalid value`,
 * the tool pairing errors), as reported in public issue threads.
 */
import {isRecord} from './common.js';

export type OpenAIError = {status: number; message: string; type: string; param: string | null; code: string | null};

export const OPENAI_KNOWN_PARAMS = new Set([
	'model', 'messages', 'stream', 'stream_options', 'max_tokens', 'max_completion_tokens', 'temperature', 'top_p', 'n', 'stop',
	'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'reasoning_effort', 'seed', 'user', 'metadata', 'store',
	'logprobs', 'top_logprobs', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'modalities', 'audio', 'prediction',
	'service_tier', 'web_search_options', 'verbosity', 'prompt_cache_key', 'safety_identifier',
	// Also in openai-node v6's ChatCompletionCreateParams:
	'functions', 'function_call', 'moderation', 'prompt_cache_options', 'prompt_cache_retention',
]);

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];
const PART_TYPES = ['text', 'image_url', 'input_audio', 'refusal', 'audio', 'file'];
const MESSAGE_KEYS: Record<string, string[]> = {
	system: ['role', 'content', 'name'],
	developer: ['role', 'content', 'name'],
	user: ['role', 'content', 'name'],
	// reasoning_content: DeepSeek-style OpenAI-compatible upstreams accept it back.
	assistant: ['role', 'content', 'name', 'tool_calls', 'refusal', 'audio', 'function_call', 'reasoning_content'],
	tool: ['role', 'content', 'tool_call_id'],
	function: ['role', 'content', 'name'],
};

const bad = (message: string, param: string | null, code: string | null = null): OpenAIError => ({
	status: 400,
	message,
	type: 'invalid_request_error',
	param,
	code,
});
const missing = (param: string): OpenAIError => bad(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
const invalidType = (param: string, expected: string, value: unknown): OpenAIError =>
	bad(`Invalid type for '${param}': expected ${expected}, but got ${describe(value)} instead.`, param, 'invalid_type');
const emptyArray = (param: string): OpenAIError =>
	bad(`Invalid '${param}': empty array. Expected an array with minimum length 1, but got an empty array instead.`, param, 'empty_array');
const invalidValue = (param: string, value: unknown, allowed: string[]): OpenAIError =>
	bad(`Invalid value: '${String(value)}'. Supported values are: ${quoteList(allowed)}.`, param, 'invalid_value');

function describe(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	if (typeof value === 'string') return 'a string';
	if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a decimal';
	return `a ${typeof value}`;
}

function quoteList(values: string[]): string {
	const quoted = values.map((v) => `'${v}'`);
	return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1) ?? ''}` : quoted.join('');
}

function checkContent(content: unknown, role: string, path: string): OpenAIError | undefined {
	if (typeof content === 'string') return undefined;
	if (!Array.isArray(content)) return invalidType(`${path}.content`, 'one of a string or array of objects', content);
	if (content.length === 0 && role !== 'assistant') return emptyArray(`${path}.content`);
	for (const [j, part] of content.entries()) {
		const p = `${path}.content[${j}]`;
		if (!isRecord(part)) return invalidType(p, 'an object', part);
		if (typeof part.type !== 'string') return missing(`${p}.type`);
		if (!PART_TYPES.includes(part.type)) return invalidValue(`${p}.type`, part.type, PART_TYPES);
		if (part.type === 'text' && typeof part.text !== 'string') return part.text === undefined ? missing(`${p}.text`) : invalidType(`${p}.text`, 'a string', part.text);
		if (part.type === 'image_url') {
			if (role !== 'user') {
				return bad(`Invalid '${path}'. Image URLs are only allowed for messages with role 'user', but this message with role '${role}' contains an image URL.`, path, 'invalid_value');
			}
			if (!isRecord(part.image_url)) return missing(`${p}.image_url`);
			const url = part.image_url.url;
			if (typeof url !== 'string') return url === undefined ? missing(`${p}.image_url.url`) : invalidType(`${p}.image_url.url`, 'a string', url);
			if (!/^(https?:\/\/|data:)/.test(url)) {
				return bad(`Invalid '${p}.image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value without the 'data:' prefix.`, `${p}.image_url.url`, 'invalid_value');
			}
		}
		if (part.type === 'refusal' && role !== 'assistant') return invalidValue(`${p}.type`, part.type, ['text', 'image_url', 'input_audio', 'file']);
	}
	return undefined;
}

function checkMessages(messages: unknown[]): OpenAIError | undefined {
	let pending: {index: number; ids: Set<string>; open: Set<string>} | undefined;
	const unanswered = (): OpenAIError | undefined => {
		if (!pending || pending.open.size === 0) return undefined;
		return bad(
			`An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending.open].join(', ')}`,
			`messages.[${pending.index}].role`,
		);
	};
	for (const [i, message] of messages.entries()) {
		const path = `messages[${i}]`;
		if (!isRecord(message)) return invalidType(path, 'an object', message);
		const role = message.role;
		if (role === undefined) return missing(`${path}.role`);
		if (typeof role !== 'string' || !ROLES.includes(role)) return invalidValue(`${path}.role`, role, ROLES);
		for (const key of Object.keys(message)) {
			if (!(MESSAGE_KEYS[role] ?? []).includes(key)) return bad(`Unknown parameter: '${path}.${key}'.`, `${path}.${key}`, 'unknown_parameter');
		}
		if (role === 'tool') {
			if (!pending) return bad("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", `messages.[${i}].role`);
			const id = message.tool_call_id;
			if (id === undefined) return missing(`${path}.tool_call_id`);
			if (typeof id !== 'string') return invalidType(`${path}.tool_call_id`, 'a string', id);
			if (!pending.ids.has(id)) return bad(`Invalid parameter: 'tool_call_id' of '${id}' not found in 'tool_calls' of previous message.`, `messages.[${i}].tool_call_id`);
			pending.open.delete(id);
		} else {
			const error = unanswered();
			if (error) return error;
			pending = undefined;
		}
		const content = message.content;
		const hasToolCalls = role === 'assistant' && (message.tool_calls !== undefined || message.function_call !== undefined);
		if (content === undefined || content === null) {
			if (!hasToolCalls && !(role === 'assistant' && typeof message.refusal === 'string')) {
				return content === null ? invalidType(`${path}.content`, 'one of a string or array of objects', null) : missing(`${path}.content`);
			}
		} else {
			const error = checkContent(content, role, path);
			if (error) return error;
		}
		if (role === 'assistant' && message.tool_calls !== undefined) {
			const calls = message.tool_calls;
			if (!Array.isArray(calls)) return invalidType(`${path}.tool_calls`, 'an array', calls);
			if (calls.length === 0) return emptyArray(`${path}.tool_calls`);
			const ids = new Set<string>();
			for (const [j, call] of calls.entries()) {
				const p = `${path}.tool_calls[${j}]`;
				if (!isRecord(call)) return invalidType(p, 'an object', call);
				if (typeof call.id !== 'string') return call.id === undefined ? missing(`${p}.id`) : invalidType(`${p}.id`, 'a string', call.id);
				if (call.type !== 'function' && call.type !== 'custom') return call.type === undefined ? missing(`${p}.type`) : invalidValue(`${p}.type`, call.type, ['function', 'custom']);
				if (call.type === 'function') {
					if (!isRecord(call.function)) return missing(`${p}.function`);
					if (typeof call.function.name !== 'string') return missing(`${p}.function.name`);
					const args = call.function.arguments;
					if (typeof args !== 'string') return args === undefined ? missing(`${p}.function.arguments`) : invalidType(`${p}.function.arguments`, 'a string', args);
				}
				ids.add(call.id);
			}
			pending = {index: i, ids, open: new Set(ids)};
		}
	}
	return unanswered();
}

function checkTools(body: Record<string, unknown>): OpenAIError | undefined {
	const tools = body.tools;
	if (tools === undefined) {
		if (body.tool_choice !== undefined) return bad("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", 'tool_choice');
		if (body.parallel_tool_calls !== undefined) return bad("Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.", 'parallel_tool_calls');
		return undefined;
	}
	if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
	if (tools.length === 0) return emptyArray('tools');
	for (const [i, tool] of tools.entries()) {
		const p = `tools[${i}]`;
		if (!isRecord(tool)) return invalidType(p, 'an object', tool);
		if (tool.type !== 'function' && tool.type !== 'custom') return tool.type === undefined ? missing(`${p}.type`) : invalidValue(`${p}.type`, tool.type, ['function', 'custom']);
		const fn = tool.type === 'function' ? tool.function : tool.custom;
		const fp = `${p}.${tool.type}`;
		if (!isRecord(fn)) return missing(fp);
		for (const key of Object.keys(tool)) {
			if (key !== 'type' && key !== tool.type) return bad(`Unknown parameter: '${p}.${key}'.`, `${p}.${key}`, 'unknown_parameter');
		}
		const allowed = tool.type === 'function' ? ['name', 'description', 'parameters', 'strict'] : ['name', 'description', 'format'];
		for (const key of Object.keys(fn)) {
			if (!allowed.includes(key)) return bad(`Unknown parameter: '${fp}.${key}'.`, `${fp}.${key}`, 'unknown_parameter');
		}
		const name = fn.name;
		if (typeof name !== 'string') return name === undefined ? missing(`${fp}.name`) : invalidType(`${fp}.name`, 'a string', name);
		if (name.length > 64) return bad(`Invalid '${fp}.name': string too long. Expected a string with maximum length 64, but got a string with length ${name.length} instead.`, `${fp}.name`, 'string_above_max_length');
		if (!/^[a-zA-Z0-9_-]+$/.test(name)) return bad(`Invalid '${fp}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${fp}.name`, 'invalid_value');
		if (fn.parameters !== undefined) {
			if (!isRecord(fn.parameters)) return invalidType(`${fp}.parameters`, 'an object', fn.parameters);
			if (fn.parameters.type !== 'object') {
				return bad(`Invalid schema for function '${name}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String(fn.parameters.type ?? 'None')}"'.`, `${fp}.parameters`, 'invalid_function_parameters');
			}
		}
	}
	const choice = body.tool_choice;
	if (choice !== undefined && typeof choice === 'string' && !['none', 'auto', 'required'].includes(choice)) return invalidValue('tool_choice', choice, ['none', 'auto', 'required']);
	if (choice !== undefined && typeof choice !== 'string') {
		if (!isRecord(choice)) return invalidType('tool_choice', 'one of a string or object', choice);
		if (choice.type === 'function' && !(isRecord(choice.function) && typeof choice.function.name === 'string')) return missing('tool_choice.function.name');
	}
	return undefined;
}

/** Validate a /v1/chat/completions body. Model existence is checked by the caller afterwards (404). */
export function validateChatBody(body: unknown): OpenAIError | undefined {
	if (!isRecord(body)) return bad('Invalid type for request body: expected an object.', null);
	for (const key of Object.keys(body)) {
		if (!OPENAI_KNOWN_PARAMS.has(key)) return bad(`Unrecognized request argument supplied: ${key}`, null);
	}
	if (body.model === undefined) return bad('you must provide a model parameter', null);
	if (typeof body.model !== 'string') return invalidType('model', 'a string', body.model);
	if (body.messages === undefined) return missing('messages');
	if (!Array.isArray(body.messages)) return invalidType('messages', 'an array', body.messages);
	if (body.messages.length === 0) return emptyArray('messages');
	if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') return invalidType('stream', 'a boolean', body.stream);
	if (body.stream_options !== undefined && body.stream_options !== null) {
		if (body.stream !== true) return bad("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
		if (!isRecord(body.stream_options)) return invalidType('stream_options', 'an object', body.stream_options);
		for (const key of Object.keys(body.stream_options)) {
			if (key !== 'include_usage' && key !== 'include_obfuscation') return bad(`Unknown parameter: 'stream_options.${key}'.`, `stream_options.${key}`, 'unknown_parameter');
		}
	}
	for (const [name, max] of [['temperature', 2], ['top_p', 1]] as const) {
		const value = body[name];
		if (value === undefined || value === null) continue;
		if (typeof value !== 'number') return invalidType(name, 'a number', value);
		if (value > max) return bad(`Invalid '${name}': decimal above maximum value. Expected a value <= ${max}, but got ${value} instead.`, name, 'decimal_above_max_value');
		if (value < 0) return bad(`Invalid '${name}': decimal below minimum value. Expected a value >= 0, but got ${value} instead.`, name, 'decimal_below_min_value');
	}
	for (const name of ['max_tokens', 'max_completion_tokens', 'n', 'seed']) {
		const value = body[name];
		if (value !== undefined && value !== null && !Number.isInteger(value)) return invalidType(name, 'an integer', value);
	}
	const effort = body.reasoning_effort;
	const efforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];
	if (effort !== undefined && effort !== null && (typeof effort !== 'string' || !efforts.includes(effort))) return invalidValue('reasoning_effort', effort, efforts);
	return checkMessages(body.messages) ?? checkTools(body);
}
