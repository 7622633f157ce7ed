/**
 * The per-request TranslationContext: losses go onto the request log, and http(s) images are fetched
 * (for Gemini, which needs inline bytes) with a size limit and a time-out.
 */
import {Agent, interceptors, request, type Dispatcher} from 'undici';
import {GatewayError} from '../base/errors.js';
import type {TranslationContext} from '../formats/adapter.js';
import type {RelayContext} from './relay.js';

export function translationContext(context: Pick<RelayContext, 'exchange' | 'options'>): TranslationContext {
	const {exchange, options} = context;
	return {
		warn(message) {
			if (!exchange.warnings.includes(message)) exchange.warnings.push(message);
		},
		fetchImage: url => fetchImage(url, options.imageFetch.maxBytes, options.imageFetch.timeoutMs),
	};
}

let imageAgent: Dispatcher | undefined;

async function fetchImage(url: string, maxBytes: number, timeoutMs: number): Promise<{mediaType: string; data: string}> {
	const refuse = (why: string) =>
		new GatewayError('invalid_request', 400, `The image ${url.slice(0, 100)} could not be fetched (${why}). This channel needs image bytes inline: send the image as a base64 data URL instead.`, {param: 'image_url'});
	if (!/^https?:\/\//i.test(url)) throw refuse('only http(s) URLs can be fetched');
	let response;
	try {
		imageAgent ??= new Agent({connect: {timeout: timeoutMs}}).compose(interceptors.redirect({maxRedirections: 3}));
		response = await request(url, {method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs), dispatcher: imageAgent});
	} catch (error) {
		throw refuse((error as Error).message);
	}
	if (response.statusCode !== 200) {
		await response.body.dump();
		throw refuse(`HTTP ${response.statusCode}`);
	}
	const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
	if (!mediaType.startsWith('image/')) {
		await response.body.dump();
		throw refuse(`it is ${mediaType || 'of no declared type'}, not an image`);
	}
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of response.body) {
			size += (chunk as Buffer).length;
			if (size > maxBytes) throw refuse(`larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`);
			chunks.push(chunk as Buffer);
		}
	} catch (error) {
		response.body.destroy();
		throw error instanceof GatewayError ? error : refuse((error as Error).message);
	}
	return {mediaType, data: Buffer.concat(chunks).toString('base64')};
}
