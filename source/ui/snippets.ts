/**
 * The Endpoints pane's copyable snippets, with the chosen key's secret filled in: environment
 * variables for each tool family (from services/endpoints.ts, exactly what `gateway-tui env`
 * prints), the one setting Gemini CLI needs, and a curl request per wire format.
 */
import type {Format} from '../base/ir.js';
import {exportLines} from '../services/endpoints.js';
import type {ChannelRecord} from '../base/records.js';

export type Snippet = {
	readonly id: string;
	readonly title: string;
	/** How the status bar names it: "copied OPENAI_BASE_URL snippet". */
	readonly what: string;
	/** Shown above the text, not copied. */
	readonly note?: string;
	readonly text: string;
	/** What `text` is: shell commands (which the pane breaks as a person would, with a backslash) or a JSON line. */
	readonly language: 'shell' | 'json';
};

export type Endpoint = {readonly format: string; readonly baseUrl: string; readonly paths: string};

export function endpoints(base: string): Endpoint[] {
	return [
		{format: 'OpenAI', baseUrl: `${base}/v1`, paths: 'POST /chat/completions, GET /models'},
		{format: 'Anthropic', baseUrl: base, paths: 'POST /v1/messages, /v1/messages/count_tokens'},
		{format: 'Gemini', baseUrl: base, paths: 'POST /v1beta/models/{model}:generateContent'},
	];
}

const fallbackModels: Readonly<Record<Format, string>> = {openai: 'gpt-5.4-mini', anthropic: 'claude-sonnet-5-5', gemini: 'gemini-3.5-flash'};

/** A model the key may use, preferably served by a channel of `format` (no translation needed). */
export function exampleModel(format: Format, channels: readonly ChannelRecord[], allowed: readonly string[]): string {
	const usable = (channel: ChannelRecord) => channel.models.map(model => model.name).filter(name => allowed.length === 0 || allowed.includes(name));
	const enabled = channels.filter(channel => channel.enabled);
	const native = enabled.filter(channel => channel.format === format).flatMap(usable);
	return native[0] ?? enabled.flatMap(usable)[0] ?? allowed[0] ?? fallbackModels[format];
}

export function snippets(base: string, secret: string, model: (format: Format) => string): Snippet[] {
	const hello = '[{"role":"user","content":"Hello"}]';
	return [
		{id: 'openai-env', title: 'OpenAI SDK, compatible', what: 'OPENAI_BASE_URL snippet', text: exportLines('openai', secret, base), language: 'shell'},
		{id: 'anthropic-env', title: 'Claude Code, Anthropic', what: 'ANTHROPIC_BASE_URL snippet', text: exportLines('anthropic', secret, base), language: 'shell'},
		{id: 'gemini-env', title: 'Gemini CLI, Gemini SDK', what: 'GOOGLE_GEMINI_BASE_URL snippet', text: exportLines('gemini', secret, base), language: 'shell'},
		{
			id: 'gemini-settings',
			title: 'Gemini CLI settings',
			what: 'Gemini CLI settings line',
			note: 'Gemini CLI accepts a custom base URL only with this in ~/.gemini/settings.json:',
			text: '{"security":{"auth":{"selectedType":"gemini-api-key"}}}',
			language: 'json',
		},
		{
			id: 'curl-openai',
			title: 'curl OpenAI',
			what: 'OpenAI curl example',
			text: curl(`${base}/v1/chat/completions`, [`Authorization: Bearer ${secret}`], `{"model":"${model('openai')}","messages":${hello}}`),
			language: 'shell',
		},
		{
			id: 'curl-anthropic',
			title: 'curl Anthropic',
			what: 'Anthropic curl example',
			text: curl(`${base}/v1/messages`, [`x-api-key: ${secret}`, 'anthropic-version: 2023-06-01'], `{"model":"${model('anthropic')}","max_tokens":256,"messages":${hello}}`),
			language: 'shell',
		},
		{
			id: 'curl-gemini',
			title: 'curl Gemini',
			what: 'Gemini curl example',
			text: curl(`${base}/v1beta/models/${model('gemini')}:generateContent`, [`x-goog-api-key: ${secret}`], '{"contents":[{"parts":[{"text":"Hello"}]}]}'),
			language: 'shell',
		},
	];
}

function curl(url: string, headers: readonly string[], body: string): string {
	return [`curl "${url}"`, ...headers.map(header => `  -H "${header}"`), '  -H "Content-Type: application/json"', `  -d '${body}'`].join(' \\\n');
}
