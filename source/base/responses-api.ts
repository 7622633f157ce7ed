import type {ChannelRecord} from './records.js';

/**
 * Whether an OpenAI channel takes Responses API requests (Codex) as they are, at `{baseUrl}/responses`.
 * The setting, else on for api.openai.com: most OpenAI-compatible servers only have chat completions.
 */
export function speaksResponsesApi(channel: Pick<ChannelRecord, 'format' | 'baseUrl' | 'responsesApi'>): boolean {
	if (channel.format !== 'openai') return false;
	if (channel.responsesApi !== undefined) return channel.responsesApi;
	try {
		return new URL(channel.baseUrl).hostname.toLowerCase() === 'api.openai.com';
	} catch {
		return false;
	}
}

