/**
 * Random text for the ids the gateway makes up (response, message and tool-call ids). It comes from
 * `randomUUID`, for which Node draws entropy in batches: `randomBytes` per id cost a translated
 * stream about 20 µs (one call into the CSPRNG per id). For ids only — keys and secrets take their
 * bytes from `randomBytes`.
 */
import {randomUUID} from 'node:crypto';

/** `length` random lowercase hex digits. */
export function randomHex(length: number): string {
	let hex = '';
	while (hex.length < length) {
		const uuid = randomUUID();
		// Its 32 hex digits less the version digit (always 4), which would repeat in every id.
		hex += uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(15, 18) + uuid.slice(19, 23) + uuid.slice(24);
	}
	return hex.slice(0, length);
}
