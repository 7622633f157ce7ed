/**
 * Prompt-cache markers. Only `ephemeral` exists; `ttl` is "5m" (default) or "1h".
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
import type {IRCacheControl} from '../../base/ir.js';
import {isWireObject} from '../wire.js';
import type {AnthropicCacheControl} from './schema.js';

export function decodeAnthropicCacheControl(value: unknown): IRCacheControl | undefined {
	if (!isWireObject(value) || value.type !== 'ephemeral') return undefined;
	return typeof value.ttl === 'string' ? {type: 'ephemeral', ttl: value.ttl} : {type: 'ephemeral'};
}

export function encodeAnthropicCacheControl(cache: IRCacheControl | undefined): AnthropicCacheControl | undefined {
	if (!cache) return undefined;
	return cache.ttl === undefined ? {type: 'ephemeral'} : {type: 'ephemeral', ttl: cache.ttl};
}
