/**
 * Ink's layout engine (yoga) gets its WebAssembly bytes with `fetch` whenever `fetch` is a function,
 * which in Node loads Node's own undici into the UI thread (start time and heap) to read a `data:`
 * URL. The TUI loads its modules with `fetch` hidden: checked in a fresh process, on the UI's real
 * module graph, against a control that loads the same graph without the wrapper.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Whether Node's undici was loaded by loading the UI's modules, and what `fetch` is after. */
function loadUi(wrapped: boolean): {undici: boolean; fetch: string} {
	const load = wrapped
		? `const {withoutFetch} = await import('./source/base/without-fetch.ts'); await withoutFetch(() => import('./source/ui/run.tsx'));`
		: `await import('./source/ui/run.tsx');`;
	// undici is looked for before `typeof fetch` is read: reading it loads undici (the property is a lazy getter).
	const script = `${load} console.log(JSON.stringify({undici: process.moduleLoadList.some(name => name.includes('undici')), fetch: typeof fetch}));`;
	const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {cwd: root, encoding: 'utf8', env: {...process.env, NODE_NO_WARNINGS: '1'}});
	assert.equal(ran.status, 0, ran.stderr);
	return JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as {undici: boolean; fetch: string};
}

test('the UI\'s modules load without Node\'s undici, and fetch is there again after', () => {
	assert.deepEqual(loadUi(true), {undici: false, fetch: 'function'});
});

test('control: loaded plainly, the same modules pull Node\'s undici in (what the wrapper saves)', () => {
	assert.deepEqual(loadUi(false), {undici: true, fetch: 'function'});
});
