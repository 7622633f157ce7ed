/**
 * Provider presets for the channel form: choosing one fills the format, the base URL (each SDK's
 * own convention: OpenAI-style URLs include /v1, Anthropic's and Gemini's do not) and example models.
 */
import type {Format} from '../base/ir.js';

export type Preset = {
	readonly id: string;
	readonly label: string;
	readonly format: Format;
	readonly baseUrl: string;
	/** The models field's first value (the user edits it). */
	readonly models: string;
	readonly needsKey: boolean;
	/** Where the provider lists its prices (the prices field's placeholder points there). */
	readonly pricing?: string;
};

export const presets: readonly Preset[] = [
	{id: 'openai', label: 'OpenAI', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-5.4,gpt-5.4-mini', needsKey: true, pricing: 'openai.com/api/pricing'},
	{id: 'anthropic', label: 'Anthropic', format: 'anthropic', baseUrl: 'https://api.anthropic.com', models: 'claude-sonnet-5-5,claude-haiku-5-5', needsKey: true, pricing: 'anthropic.com/pricing'},
	{id: 'gemini', label: 'Gemini', format: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', models: 'gemini-3.5-flash,gemini-3.1-pro-preview', needsKey: true, pricing: 'ai.google.dev/gemini-api/docs/pricing'},
	{id: 'deepseek', label: 'DeepSeek', format: 'openai', baseUrl: 'https://api.deepseek.com/v1', models: 'deepseek-chat,deepseek-reasoner', needsKey: true, pricing: 'api-docs.deepseek.com/quick_start/pricing'},
	{id: 'openrouter', label: 'OpenRouter', format: 'openai', baseUrl: 'https://openrouter.ai/api/v1', models: 'sonnet=anthropic/claude-sonnet-5.5', needsKey: true, pricing: 'openrouter.ai/models'},
	{id: 'groq', label: 'Groq', format: 'openai', baseUrl: 'https://api.groq.com/openai/v1', models: 'llama-3.3-70b-versatile', needsKey: true, pricing: 'groq.com/pricing'},
	{id: 'mistral', label: 'Mistral', format: 'openai', baseUrl: 'https://api.mistral.ai/v1', models: 'mistral-large-latest', needsKey: true, pricing: 'mistral.ai/pricing'},
	{id: 'xai', label: 'xAI', format: 'openai', baseUrl: 'https://api.x.ai/v1', models: 'grok-4', needsKey: true, pricing: 'docs.x.ai/docs/models'},
	{id: 'ollama', label: 'Ollama (local)', format: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', models: 'llama3.2', needsKey: false},
	{id: 'lmstudio', label: 'LM Studio (local)', format: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', models: 'qwen2.5-7b-instruct', needsKey: false},
	{id: 'custom', label: 'Custom', format: 'openai', baseUrl: '', models: '', needsKey: true},
];

export function presetById(id: string): Preset {
	return presets.find(preset => preset.id === id) ?? presets[presets.length - 1]!;
}
