// Loaded with `node --import` by test/base/code-cache.test.ts: records, for every script compiled
// through vm.Script in the process, its file name, whether it came with a code cache and whether V8
// refused that cache, one JSON line each in the file named by RECORD_COMPILES_FILE.
import {appendFileSync} from 'node:fs';
import {syncBuiltinESMExports} from 'node:module';
import vm from 'node:vm';

const file = process.env.RECORD_COMPILES_FILE;
if (file) {
	const Original = vm.Script;
	vm.Script = class RecordedScript extends Original {
		constructor(code, options = {}) {
			super(code, options);
			appendFileSync(file, `${JSON.stringify({filename: options.filename ?? '', cachedData: options.cachedData !== undefined, rejected: this.cachedDataRejected === true})}\n`);
		}
	};
	syncBuiltinESMExports();
}
