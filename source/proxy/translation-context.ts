/**
 * The per-request TranslationContext: losses go onto the attempt's warnings, tool-call signatures
 * into the gateway's memory, and http(s) images are fetched (for Gemini, which needs inline bytes)
 * with a size limit and a time-out, through the gateway's own image agent.
 */
import {Agent, redirect, type Dispatcher} from './stack.js';
import {GatewayError} from '../base/errors.js';
import type {SignatureMemory, TranslationContext} from '../formats/adapter.js';

export type ImageFetchOptions = {readonly maxBytes: number; readonly timeoutMs: number};

export function translationContext(warnings: string[], signatures: SignatureMemory, images: ImageFetcher): TranslationContext {
	return {
		warn(message) {
			if (!warnings.includes(message)) warnings.push(message);
		},
		fetchImage: url => images.fetch(url),
		signatures,
	};
}

export class ImageFetcher {
	private agent: Dispatcher | undefined;

	constructor(private readonly options: ImageFetchOptions) {}

	async close(): Promise<void> {
		await this.agent?.close();
		this.agent = undefined;
	}

	async fetch(url: string): Promise<{mediaType: string; data: string}> {
		const {maxBytes, timeoutMs} = this.options;
		const refuse = (why: string) =>
			new GatewayError('invalid_request', 400, `The image ${url.slice(0, 100)} could not be fetched (${why}). This channel needs image bytes inline: send the image as a base64 data URL instead.`, {param: 'image_url'});
		if (!/^https?:\/\//i.test(url)) throw refuse('only http(s) URLs can be fetched');
		let response;
		try {
			this.agent ??= new Agent({connect: {timeout: timeoutMs}}).compose(redirect({maxRedirections: 3}));
			const target = new URL(url);
			response = await this.agent.request({origin: target.origin, path: `${target.pathname}${target.search}`, method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs)});
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
}
