/**
 * Coded gateway errors. Anything the proxy refuses or fails with is a GatewayError; each inbound
 * format renders it in its own error shape (formats/<format>/errors.ts).
 */
import type {IRError, IRErrorKind} from './ir.js';

export class GatewayError extends Error implements IRError {
	readonly kind: IRErrorKind;
	readonly status: number;
	readonly code?: string;
	readonly param?: string;
	readonly retryAfter?: string;

	constructor(kind: IRErrorKind, status: number, message: string, extra: {code?: string; param?: string; retryAfter?: string; cause?: unknown} = {}) {
		super(message, extra.cause === undefined ? undefined : {cause: extra.cause});
		this.name = 'GatewayError';
		this.kind = kind;
		this.status = status;
		this.code = extra.code;
		this.param = extra.param;
		this.retryAfter = extra.retryAfter;
	}

	static from(error: IRError): GatewayError {
		return error instanceof GatewayError ? error : new GatewayError(error.kind, error.status, error.message, error);
	}
}

export const invalidRequest = (message: string, param?: string): GatewayError =>
	new GatewayError('invalid_request', 400, message, {param, code: 'invalid_request'});

/**
 * Errors a user of the CLI or TUI can act on (bad input, a name that exists already, a store that
 * cannot be read). The CLI prints the message as one line and exits 1.
 */
export class UserError extends Error {
	constructor(message: string, options?: {cause?: unknown}) {
		super(message, options);
		this.name = 'UserError';
		Object.defineProperty(this, userErrorMark, {value: true});
	}
}

/** Marks a UserError (and so a StoreError) whichever copy of this module made it: see isUserError. */
const userErrorMark = Symbol.for('gateway-tui.user-error');

/**
 * A UserError (StoreError included) — also one from the TUI's build, whose copy of this class is not
 * the commands' (source/cli/default.ts), where `instanceof` would say no.
 */
export function isUserError(error: unknown): error is UserError {
	return error instanceof UserError || (error instanceof Error && (error as Error & {[userErrorMark]?: unknown})[userErrorMark] === true);
}
