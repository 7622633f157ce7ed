/** The adapter for each wire format (hub and spoke: every adapter converts to and from the IR only). */
import type {FormatAdapter} from './adapter.js';
import type {Format} from './ir.js';
import {openaiAdapter} from './openai/index.js';
import {anthropicAdapter} from './anthropic/index.js';
import {geminiAdapter} from './gemini/index.js';

export const adapters: Readonly<Record<Format, FormatAdapter>> = {
	openai: openaiAdapter,
	anthropic: anthropicAdapter,
	gemini: geminiAdapter,
};
