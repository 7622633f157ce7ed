/**
 * Turning anything thrown during a request into a GatewayError, and rendering it in the format
 * the client speaks (through its adapter).
 */
import type {FastifyReply} from 'fastify';
import {GatewayError} from '../base/errors.js';
import type {InboundAdapter} from '../formats/adapter.js';
import {settle} from './exchange.js';

const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`);

/** Fastify's own errors (body too large, bad JSON, wrong content type) and unexpected ones, as GatewayErrors. */
export function toGatewayError(error: unknown, bodyLimitBytes?: number): GatewayError {
	if (error instanceof GatewayError) return error;
	const fastifyError = error as {statusCode?: unknown; code?: unknown; message?: unknown};
	const status = typeof fastifyError.statusCode === 'number' ? fastifyError.statusCode : 500;
	const message = typeof fastifyError.message === 'string' ? fastifyError.message : String(error);
	if (status === 413) {
		const limit = bodyLimitBytes === undefined ? "the gateway's limit" : mib(bodyLimitBytes);
		return new GatewayError('payload_too_large', 413, `The request body is larger than ${limit}. Send smaller images or fewer of them (the limit is set with serve --body-limit).`, {code: 'request_too_large'});
	}
	if (status === 415) return new GatewayError('invalid_request', 415, `${message}. Send the body as application/json.`, {code: 'invalid_request'});
	if (status >= 400 && status < 500) return new GatewayError('invalid_request', status, `The request could not be read: ${message}.`, {code: 'invalid_request'});
	return new GatewayError('internal', 500, `The gateway failed while handling this request (${message}). This is a gateway bug: please report it with the request id.`, {cause: error});
}

export function sendError(reply: FastifyReply, inbound: Pick<InboundAdapter, 'renderError'>, error: unknown, bodyLimitBytes?: number): FastifyReply {
	const gatewayError = toGatewayError(error, bodyLimitBytes);
	settle(reply.request, {error: gatewayError.message});
	const {status, body} = inbound.renderError(gatewayError);
	if (gatewayError.retryAfter) {
		void reply.header('retry-after', gatewayError.retryAfter);
		// The OpenAI and Anthropic SDKs sleep as long as retry-after says, inside the call: a key over its
		// budget until midnight would hang its caller for hours. Past a minute they are told not to retry.
		if (Number(gatewayError.retryAfter) > maxClientWaitSeconds) void reply.header('x-should-retry', 'false');
	}
	return reply.code(status).type('application/json').send(body);
}

/** The longest retry-after an SDK is left to wait out by itself (longer: `x-should-retry: false`). */
const maxClientWaitSeconds = 60;
