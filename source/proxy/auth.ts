/**
 * Where each format's clients put the key. OpenAI: `Authorization: Bearer`. Anthropic: `x-api-key`
 * or `Authorization: Bearer` (ANTHROPIC_AUTH_TOKEN). Gemini: `x-goog-api-key`, `?key=` or Bearer.
 * Responses (Codex, `env_key`): `Authorization: Bearer`, as OpenAI.
 */
import type {FastifyRequest} from 'fastify';
import {assertNever, type InboundFormat} from '../base/ir.js';

function header(request: FastifyRequest, name: string): string | undefined {
	const value = request.headers[name];
	const first = Array.isArray(value) ? value[0] : value;
	return first?.trim() || undefined;
}

function bearer(request: FastifyRequest): string | undefined {
	const value = header(request, 'authorization');
	const match = value ? /^Bearer\s+(.+)$/i.exec(value) : null;
	return match?.[1]?.trim() || undefined;
}

export function presentedKey(request: FastifyRequest, format: InboundFormat): string | undefined {
	switch (format) {
		case 'openai':
		case 'responses':
			return bearer(request);
		case 'anthropic':
			return header(request, 'x-api-key') ?? bearer(request);
		case 'gemini': {
			const query = (request.query as Record<string, unknown> | undefined)?.key;
			return header(request, 'x-goog-api-key') ?? (typeof query === 'string' && query ? query : undefined) ?? bearer(request);
		}
		default:
			return assertNever(format, 'format');
	}
}
