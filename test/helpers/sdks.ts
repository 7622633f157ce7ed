/** The official SDKs, pointed at a gateway with a virtual key — exactly as a user configures them. */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import {GoogleGenAI} from '@google/genai';

export function openaiClient(base: string, key: string): OpenAI {
	return new OpenAI({baseURL: `${base}/v1`, apiKey: key, maxRetries: 0});
}

export function anthropicClient(base: string, key: string): Anthropic {
	return new Anthropic({baseURL: base, apiKey: key, maxRetries: 0});
}

export function geminiClient(base: string, key: string): GoogleGenAI {
	return new GoogleGenAI({apiKey: key, httpOptions: {baseUrl: base}});
}

/** Poll until `check` holds (or fail after `ms`). */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 3000, what = 'condition'): Promise<void> {
	const deadline = Date.now() + ms;
	while (Date.now() < deadline) {
		if (await check()) return;
		await new Promise(resolve => setTimeout(resolve, 20));
	}
	throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}
