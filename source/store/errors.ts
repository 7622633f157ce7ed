import {UserError} from '../base/errors.js';

/**
 * A store that cannot be opened, reached or read, or holds an invalid record. A UserError: the CLI
 * prints its message as one line, which says which store (URL masked) and what to do.
 */
export class StoreError extends UserError {
	constructor(message: string, options?: {cause?: unknown}) {
		super(message, options);
		this.name = 'StoreError';
	}
}

/** A record the store holds that this version cannot read (written by a newer one, or edited by hand). */
export class InvalidRecordError extends StoreError {
	constructor(
		/** What the record is, as messages name it: `channel`, `key`, `usage journal`, … */
		readonly what: string,
		readonly id: string,
		message: string,
	) {
		super(message);
		this.name = 'InvalidRecordError';
	}
}
