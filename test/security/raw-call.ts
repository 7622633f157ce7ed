/** One request to the gateway in a client format, read raw: every header and body byte the client gets. */
export type ClientFormat = 'openai' | 'anthropic' | 'gemini' | 'responses';

export type RawAnswer = {readonly status: number; readonly headers: string; readonly body: string};

export function requestFor(format: ClientFormat, model: string, streamed: boolean, key: string): {path: string; headers: Record<string, string>; body: unknown} {
	const messages = [{role: 'user', content: 'hi'}];
	switch (format) {
		case 'anthropic':
			return {path: '/v1/messages', headers: {'x-api-key': key, 'anthropic-version': '2023-06-01'}, body: {model, max_tokens: 16, messages, stream: streamed}};
		case 'gemini':
			return {path: `/v1beta/models/${model}:${streamed ? 'streamGenerateContent?alt=sse' : 'generateContent'}`, headers: {'x-goog-api-key': key}, body: {contents: [{role: 'user', parts: [{text: 'hi'}]}]}};
		case 'responses':
			return {path: '/v1/responses', headers: {authorization: `Bearer ${key}`}, body: {model, input: 'hi', stream: streamed}};
		default:
			return {path: '/v1/chat/completions', headers: {authorization: `Bearer ${key}`}, body: {model, messages, stream: streamed}};
	}
}

export async function rawCall(base: string, key: string, format: ClientFormat, model: string, streamed: boolean): Promise<RawAnswer> {
	const request = requestFor(format, model, streamed, key);
	const response = await fetch(`${base}${request.path}`, {method: 'POST', headers: {'content-type': 'application/json', ...request.headers}, body: JSON.stringify(request.body)});
	const body = await response.text().catch((error: unknown) => `(body broke off: ${String(error)})`);
	return {status: response.status, headers: [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n'), body};
}
