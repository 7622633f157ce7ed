// Loaded with `node --import` by test/cli/collation.test.ts: records each call of
// String.prototype.localeCompare (whose first call in a process loads ICU's collation, ~12 ms) in
// the file named by RECORD_COLLATION_FILE, one line a call, with the first frame outside this file.
import {appendFileSync} from 'node:fs';

const file = process.env.RECORD_COLLATION_FILE;
if (file) {
	const localeCompare = String.prototype.localeCompare;
	String.prototype.localeCompare = function (...args) {
		const caller = (new Error().stack ?? '').split('\n')[2]?.trim() ?? '?';
		appendFileSync(file, `${caller}\n`);
		return localeCompare.apply(this, args);
	};
}
