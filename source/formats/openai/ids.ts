import {randomHex as token} from '../../base/random-ids.js';

/** Chat completion ids start with `chatcmpl-`; an id from another format keeps its value behind the prefix. */
export function toChatCompletionId(id: string): string {
	if (id.startsWith('chatcmpl-')) return id;
	return `chatcmpl-${id || token(29)}`;
}

/** For tool calls that arrive without an id (some compatible servers omit it). */
export function newToolCallId(): string {
	return `call_${token(24)}`;
}

export function newResponseId(): string {
	return `chatcmpl-${token(29)}`;
}
