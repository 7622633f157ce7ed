/** Raw HTTP helpers for tests that check exact status codes and bodies (no SDK in between). */
import type {Format} from '../../source/base/ir.js';

export type Sent = {status: number; body: unknown; headers: Headers; text: string};

export async function send(url: string, init: RequestInit = {}): Promise<Sent> {
	const response = await fetch(url, init);
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// keep text
	}
	return {status: response.status, body, headers: response.headers, text};
}

/** A minimal valid generate request in each format, with the key where that format's clients put it. */
export function generateRequest(format: Format, base: string, model: string, key?: string): [string, RequestInit] {
	const json = {'content-type': 'application/json'};
	switch (format) {
		case 'openai':
			return [`${base}/v1/chat/completions`, {method: 'POST', headers: {...json, ...(key ? {authorization: `Bearer ${key}`} : {})}, body: JSON.stringify({model, messages: [{role: 'user', content: 'hi'}]})}];
		case 'anthropic':
			return [
				`${base}/v1/messages`,
				{method: 'POST', headers: {...json, 'anthropic-version': '2023-06-01', ...(key ? {'x-api-key': key} : {})}, body: JSON.stringify({model, max_tokens: 64, messages: [{role: 'user', content: 'hi'}]})},
			];
		case 'gemini':
			return [`${base}/v1beta/models/${model}:generateContent`, {method: 'POST', headers: {...json, ...(key ? {'x-goog-api-key': key} : {})}, body: JSON.stringify({contents: [{role: 'user', parts: [{text: 'hi'}]}]})}];
	}
}

/** The error message inside any of the three error shapes. */
export function errorMessage(body: unknown): string {
	const error = (body as {error?: {message?: unknown}}).error;
	return typeof error?.message === 'string' ? error.message : '';
}
