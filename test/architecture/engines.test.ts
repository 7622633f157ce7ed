/**
 * The quick start promises Node ≥ the version in package.json's `engines`: every package the install
 * brings (the app's and the tests') must run on that version too. One that asks for a newer Node
 * makes `npm install` print an EBADENGINE warning on a machine we say is supported — fastify's
 * light-my-request brought cookie@2 (Node ≥ 22, ES modules only); package.json's `overrides` keeps
 * it on cookie@1, which has the function it calls.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import semver from 'semver';

type Lock = {packages: Record<string, {version?: string; engines?: Record<string, string> | string[]; optional?: boolean}>};

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {engines: {node: string}};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as Lock;

test('every installed package runs on the oldest Node the README and package.json promise', () => {
	const oldest = semver.minVersion(manifest.engines.node);
	assert.ok(oldest, `package.json's engines.node (${manifest.engines.node}) names no version`);
	const tooNew: string[] = [];
	for (const [path, entry] of Object.entries(lock.packages)) {
		if (path === '' || !entry.engines || Array.isArray(entry.engines)) continue;
		const wanted = entry.engines.node;
		if (wanted && !semver.satisfies(oldest, wanted)) tooNew.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${wanted}`);
	}
	assert.deepEqual(tooNew, [], `on Node ${oldest.version}, npm install would warn (EBADENGINE)`);
});

test('every installed package with an install script is approved or declined in allowScripts, so the install prints no warning about them', () => {
	// npm ≥ 11.19 skips a dependency's install scripts unless package.json's allowScripts names it, and
	// warns about each one it names neither way. sqlite3 (its native build) and esbuild (its binary)
	// must run; the real CLIs' optional native parts (keytar, node-pty) and two scripts that only
	// print or check are declined: nothing the tests run needs them.
	const {allowScripts = {}} = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {allowScripts?: Record<string, boolean>};
	const scripted = Object.entries(lock.packages as Record<string, {hasInstallScript?: boolean}>)
		.filter(([path, entry]) => path !== '' && entry.hasInstallScript)
		.map(([path]) => path.replace(/^.*node_modules\//, ''));
	assert.deepEqual(scripted.filter(name => !(name in allowScripts)), [], 'npm install would warn that these scripts were skipped');
	assert.equal(allowScripts.sqlite3, true, 'sqlite3 is built from source at install');
	assert.equal(allowScripts.esbuild, true, 'the build needs esbuild\'s binary');
});
