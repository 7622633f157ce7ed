/**
 * What OpenAI-compatible providers differ on inside one wire format, decided from the channel's base
 * URL: which of them take an end-user id (`user`), honour Anthropic-style `cache_control` markers on
 * content parts, and cap `max_tokens` below what clients ask (Claude Code asks for 32,000).
 */
import {createHash} from 'node:crypto';
import type {TranslationContext, UpstreamTarget} from '../adapter.js';

/** The channel's host, lowercase ('' for a base URL that does not parse): read once per request, as a URL parse costs about a microsecond. */
export function providerHost(baseUrl: string): string {
	try {
		return new URL(baseUrl).hostname.toLowerCase();
	} catch {
		return '';
	}
}

const isHost = (host: string, domain: string): boolean => host === domain || host.endsWith(`.${domain}`);

/**
 * Providers that document `user`: OpenAI (and Azure), OpenRouter, Groq, xAI. Others either ignore it
 * or, like Mistral, reject any field they do not know ("Extra inputs are not permitted"), so it is
 * left out for them.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-user
 * @see https://openrouter.ai/docs/api-reference/parameters
 */
const takesUser = ['api.openai.com', 'openai.azure.com', 'openrouter.ai', 'api.groq.com', 'api.x.ai'];

/**
 * OpenAI caps `user` at 64 characters; Claude Code's `metadata.user_id` is longer (and names its
 * account and session). A hash keeps it one stable identity without sending those ids.
 */
export function encodeOpenaiUser(user: string | undefined, host: string): string | undefined {
	if (user === undefined || user === '') return undefined;
	if (!takesUser.some(domain => isHost(host, domain))) return undefined;
	return user.length <= 64 ? user : createHash('sha256').update(user).digest('hex');
}

/**
 * OpenRouter passes `cache_control` on text and image parts (system, user and tool messages) on to
 * providers with explicit prompt caching (Anthropic, Gemini) and converts it for the others.
 * @see https://openrouter.ai/docs/features/prompt-caching
 */
export function honoursCacheControl(host: string): boolean {
	return isHost(host, 'openrouter.ai');
}

/**
 * Output caps of providers that refuse a larger `max_tokens` outright instead of clamping it
 * (DeepSeek: "Invalid max_tokens value, the valid range of max_tokens is [1, 8192]").
 * @see https://api-docs.deepseek.com/quick_start/pricing
 */
function outputLimit(host: string, model: string): number | undefined {
	if (isHost(host, 'api.deepseek.com')) return model.startsWith('deepseek-reasoner') ? 65_536 : 8192;
	return undefined;
}

/** The client's max tokens, lowered to the provider's cap where it has one (with a warning). */
export function encodeOpenaiMaxTokens(maxTokens: number | undefined, target: UpstreamTarget, host: string, ctx: TranslationContext): number | undefined {
	const limit = outputLimit(host, target.model);
	if (maxTokens === undefined || limit === undefined || maxTokens <= limit) return maxTokens;
	ctx.warn(`max_tokens ${maxTokens} is above ${target.model}'s limit of ${limit} at ${host}: sent as ${limit}.`);
	return limit;
}
