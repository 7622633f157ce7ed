// Loaded with `node --import` by test/cli/start-cost.test.ts: records the URL of every ES module the
// process loads (one per line) in the file named by RECORD_LOADS_FILE, through a module load hook —
// and, in turn with them, every CommonJS script of dist/ the process reads to compile itself (the
// HTTP stack's bundle, which source/base/code-cache.ts compiles with V8's code cache, not Node's loader).
import fs from 'node:fs';
import {register, syncBuiltinESMExports} from 'node:module';
import {pathToFileURL} from 'node:url';

const file = process.env.RECORD_LOADS_FILE;
register(new URL('./record-loads-hooks.mjs', import.meta.url), {data: {file}});

if (file) {
	const {readFileSync, appendFileSync} = fs;
	fs.readFileSync = function (path, ...rest) {
		if (typeof path === 'string' && /[/\\]dist[/\\][^/\\]+\.cjs$/.test(path)) appendFileSync(file, `${pathToFileURL(path).href}\n`);
		return readFileSync.call(this, path, ...rest);
	};
	syncBuiltinESMExports();
}
