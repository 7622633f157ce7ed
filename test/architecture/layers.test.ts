/**
 * The shape of the source tree, checked on every `npm test`:
 * - layers import downwards only: base ← formats, store ← proxy (the gateway core), services ← ui, cli;
 *   build/ is `npm run build`'s script, above them all (it imports none of them);
 *   the core and the services never import each other, nor formats and store each other;
 * - outside formats/, nothing imports a specific format's folder or switches on a format name;
 * - no mutable state at module level (a `let`, or a Map, Set or array not typed Readonly at the top
 *   of a module), so two gateways in one process share nothing.
 */
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {dirname, join, relative, resolve} from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const source = fileURLToPath(new URL('../../source/', import.meta.url));

function walk(dir: string): string[] {
	return readdirSync(dir).flatMap(name => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? walk(path) : /\.(tsx?|cts)$/.test(name) ? [path] : [];
	});
}

const files = walk(source).map(path => ({path, name: relative(source, path), text: readFileSync(path, 'utf8')}));

/** Rank of each top-level folder; a file may import only from lower ranks and its own folder. */
const ranks: Readonly<Record<string, number>> = {base: 0, formats: 1, store: 1, proxy: 2, services: 2, ui: 3, cli: 4, 'cli.tsx': 5, build: 6};

const layerOf = (name: string) => name.split('/')[0]!;

function importsOf(text: string): string[] {
	return [...text.matchAll(/(?:from\s+|import\(\s*)'(\.{1,2}\/[^']+)'/g)].map(match => match[1]!);
}

test('every source file belongs to a known layer', () => {
	const unknown = files.filter(file => ranks[layerOf(file.name)] === undefined).map(file => file.name);
	assert.deepEqual(unknown, []);
});

test('layers import downwards only', () => {
	const wrong: string[] = [];
	for (const file of files) {
		const from = layerOf(file.name);
		for (const spec of importsOf(file.text)) {
			const target = relative(source, resolve(dirname(file.path), spec));
			const to = layerOf(target);
			if (to === from) continue;
			if (ranks[to]! >= ranks[from]!) wrong.push(`${file.name} → ${target}`);
		}
	}
	assert.deepEqual(wrong, [], 'imports that go sideways or up');
});

test('outside formats/, no import of a specific format folder and no switch on a format name', () => {
	const wrong: string[] = [];
	for (const file of files.filter(item => layerOf(item.name) !== 'formats')) {
		for (const spec of importsOf(file.text)) {
			const target = relative(source, resolve(dirname(file.path), spec));
			if (/^formats\/[^/]+\//.test(target)) wrong.push(`${file.name} imports ${target}`);
		}
		if (layerOf(file.name) === 'proxy' && /case '(openai|anthropic|gemini|responses)':/.test(file.text)) wrong.push(`${file.name} switches on a format name`);
	}
	assert.deepEqual(wrong, []);
});

test('no mutable state at module level', () => {
	const wrong: string[] = [];
	for (const file of files) {
		for (const [index, line] of file.text.split('\n').entries()) {
			if (/^(export\s+)?(let|var)\s/.test(line) || (/^(export\s+)?const\s+\w+(:\s*[^=]+)?\s*=\s*(new\s+(Map|Set|WeakMap|Array)\b|\[\s*\]\s*;)/.test(line) && !/^(export\s+)?const\s+\w+:\s*Readonly(Map|Set)</.test(line))) {
				wrong.push(`${file.name}:${index + 1}: ${line.trim()}`);
			}
		}
	}
	assert.deepEqual(wrong, []);
});
