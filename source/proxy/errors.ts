/**
 * Turning anything thrown during a request into a GatewayError, and rendering it in the format
 * the client speaks.
 */
import type {FastifyReply} from 'fastify';
import {GatewayError} from '../base/errors.js';
import {assertNever, type InboundFormat, type IRError, type JsonObject} from '../base/ir.js';
import {renderOpenAIError} from '../formats/openai/errors.js';
import {renderAnthropicError} from '../formats/anthropic/errors.js';
import {renderGeminiError} from '../formats/gemini/errors.js';
import {renderResponsesError} from '../formats/responses/errors.js';

export const bodyLimitBytes = 32 * 1024 * 1024;

export function renderError(format: InboundFormat, error: IRError): {status: number; body: JsonObject} {
	switch (format) {
		case 'openai':
			return renderOpenAIError(error);
		case 'anthropic':
			return renderAnthropicError(error);
		case 'gemini':
			return renderGeminiError(error);
		case 'responses':
			return renderResponsesError(error);
		default:
			return assertNever(format, 'format');
	}
}

/** Fastify's own errors (body too large, bad JSON, wrong content type) and unexpected ones, as GatewayErrors. */
export function toGatewayError(error: unknown): GatewayError {
	if (error instanceof GatewayError) return error;
	const fastifyError = error as {statusCode?: unknown; code?: unknown; message?: unknown};
	const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
	const message = typeof fastifyError.message === 'string' ? fastifyError.message : String(error);
	if (status === 413) {
		return new GatewayError('payload_too_large', 413, `The request body is larger than ${bodyLimitBytes / 1024 / 1024} MiB. Send smaller images or fewer of them.`, {code: 'request_too_large'});
	}
	if (status === 415) return new GatewayError('invalid_request', 415, `${message}. Send the body as application/json.`, {code: 'invalid_request'});
	if (status >= 400 && status < 500) return new GatewayError('invalid_request', status, `The request could not be read: ${message}.`, {code: 'invalid_request'});
	return new GatewayError('internal', 500, `The gateway failed while handling this request (${message}). This is a gateway bug: please report it with the request id.`, {cause: error});
}

export function sendError(reply: FastifyReply, format: InboundFormat, error: unknown): FastifyReply {
	const gatewayError = toGatewayError(error);
	if (reply.request.exchange) reply.request.exchange.error = gatewayError.message;
	const {status, body} = renderError(format, gatewayError);
	if (gatewayError.retryAfter) void reply.header('retry-after', gatewayError.retryAfter);
	return reply.code(status).type('application/json').send(body);
}
