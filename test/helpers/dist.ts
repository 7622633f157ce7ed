/**
 * The build's output, for tests that check what it holds: the scripts in dist/ (ES module chunks
 * and CommonJS bundles, each with its source map beside it) and the sources they were made from.
 */
import {readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

export const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The built scripts' file names: `.js` (ES modules) and `.cjs` (the bundles compiled with the code cache). */
export function builtScripts(): string[] {
	return readdirSync(dist).filter(name => /\.c?js$/.test(name));
}

/** Every source file a built script holds code of, once each, as its map names it (relative to dist/, with forward slashes). */
export function builtSources(): string[] {
	const sources = new Set<string>();
	for (const name of builtScripts()) {
		for (const source of (JSON.parse(readFileSync(join(dist, `${name}.map`), 'utf8')) as {sources: string[]}).sources) sources.add(source.replace(/\\/g, '/'));
	}
	return [...sources];
}
