/**
 * The live check after a takeover: one small request with the settings the tool's files hold now
 * (its base URL, its key, its model), in the tool's own wire format, through the gateway. It says
 * whether the tool will get answers, before the user finds out from the tool.
 */
import {loadDocs} from './adapter.js';
import {resolveContext} from './context.js';
import {adapters} from './status.js';
import {takeoverTitles, type TakeoverOptions, type TakeoverTool} from './types.js';
import type {Connection} from './adapter.js';

export type LiveCheck = {
	readonly ok: boolean;
	/** The HTTP status, or null when nothing answered (or nothing was sent). */
	readonly status: number | null;
	readonly latencyMs: number;
	readonly model: string | null;
	/** What happened, in a sentence that says what to do next when it failed. */
	readonly text: string;
};

const prompt = 'Reply with the word OK.';

type Request = {readonly url: string; readonly headers: Record<string, string>; readonly body: unknown};

/** Each tool's request as the tool itself would send it. */
function requestFor(tool: TakeoverTool, {baseUrl, secret, model}: {baseUrl: string; secret: string; model: string}): Request {
	const root = baseUrl.replace(/\/+$/, '');
	switch (tool) {
		case 'claude':
			return {url: `${root}/v1/messages`, headers: {authorization: `Bearer ${secret}`, 'anthropic-version': '2023-06-01'}, body: {model, max_tokens: 16, messages: [{role: 'user', content: prompt}]}};
		case 'codex':
			return {url: `${root}/responses`, headers: {authorization: `Bearer ${secret}`}, body: {model, input: prompt, max_output_tokens: 16, store: false}};
		case 'gemini':
			return {url: `${root}/v1beta/models/${encodeURIComponent(model)}:generateContent`, headers: {'x-goog-api-key': secret}, body: {contents: [{role: 'user', parts: [{text: prompt}]}], generationConfig: {maxOutputTokens: 16}}};
	}
}

/** The error message of an answer in any of the three formats. */
function errorOf(text: string): string {
	try {
		const body = JSON.parse(text) as {error?: {message?: unknown} | string; message?: unknown};
		const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
		if (typeof message === 'string') return message;
	} catch {
		// not JSON: the text itself
	}
	return text.slice(0, 200);
}

function missing(tool: TakeoverTool, connection: Connection): string | null {
	const title = takeoverTitles[tool];
	if (!connection.baseUrl || !connection.secret) return `${title} has no gateway address or key in its settings: take it over first.`;
	if (!connection.model) return `${title} has no model set, so there is nothing to check: take it over again and choose a model.`;
	return null;
}

/** Sends the check; never throws (a failure is the result). */
export async function checkTakeover(tool: TakeoverTool, options: TakeoverOptions & {readonly timeoutMs?: number} = {}): Promise<LiveCheck> {
	const started = Date.now();
	const done = (ok: boolean, status: number | null, model: string | null, text: string): LiveCheck => ({ok, status, latencyMs: Date.now() - started, model, text});
	let connection: Connection;
	try {
		connection = adapters[tool].connection(await loadDocs(adapters[tool].files(resolveContext(options, ''))));
	} catch (error) {
		return done(false, null, null, (error as Error).message);
	}
	const problem = missing(tool, connection);
	if (problem) return done(false, null, connection.model, problem);
	const request = requestFor(tool, connection as {baseUrl: string; secret: string; model: string});
	try {
		const response = await fetch(request.url, {method: 'POST', headers: {'content-type': 'application/json', ...request.headers}, body: JSON.stringify(request.body), signal: AbortSignal.timeout(options.timeoutMs ?? 30_000)});
		const text = await response.text();
		if (response.ok) return done(true, response.status, connection.model, `answered in ${Date.now() - started} ms`);
		return done(false, response.status, connection.model, `${response.status}: ${errorOf(text)}`);
	} catch (error) {
		const reason = (error as Error).name === 'TimeoutError' ? 'no answer within 30 s' : ((error as Error & {cause?: {code?: string}}).cause?.code ?? (error as Error).message);
		return done(false, null, connection.model, `the gateway at ${connection.baseUrl} did not answer (${reason}): is it running?`);
	}
}
