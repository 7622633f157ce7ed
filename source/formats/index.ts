/** The adapter for each wire format (hub and spoke: every adapter converts to and from the IR only). */
import type {FormatAdapter, InboundAdapter} from './adapter.js';
import type {Format, InboundFormat} from '../base/ir.js';
import {openaiAdapter} from './openai/index.js';
import {anthropicAdapter} from './anthropic/index.js';
import {geminiAdapter} from './gemini/index.js';
import {responsesAdapter} from './responses/index.js';
import {withToolNameAliases} from './tool-names.js';

/** Channel formats: the ones requests can be translated into. */
export const adapters: Readonly<Record<Format, FormatAdapter>> = {
	openai: withToolNameAliases(openaiAdapter),
	anthropic: withToolNameAliases(anthropicAdapter),
	gemini: withToolNameAliases(geminiAdapter),
};

/** Every format a client may speak (the channel formats and the Responses API), and the wire a passthrough answer is read in. */
export const inboundAdapters: Readonly<Record<InboundFormat, InboundAdapter>> = {
	...adapters,
	responses: responsesAdapter,
};

/**
 * The inbound adapters in the order a path is matched to its format (for a 404 in the right shape):
 * the most specific first, OpenAI last since it takes any path.
 */
export const inboundAdapterList: readonly InboundAdapter[] = [responsesAdapter, adapters.anthropic, adapters.gemini, adapters.openai];
