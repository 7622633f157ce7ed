/**
 * The quick start's install command (`npm install && npm link --ignore-scripts`) puts `gateway-tui` on PATH, so the
 * commands the README and every message name work from any directory. CI installs exactly that way,
 * so there the command must be found; a developer who skipped `npm link` gets a skip that says so.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import {mkdtempSync, realpathSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const onPath = spawnSync('sh', ['-c', 'command -v gateway-tui'], {encoding: 'utf8'}).stdout.trim();

test('gateway-tui is on PATH and runs this checkout from any directory', {skip: !onPath && !process.env.CI ? 'gateway-tui is not on PATH: run `npm link --ignore-scripts` (the quick start does)' : false}, () => {
	assert.ok(onPath, 'gateway-tui is not on PATH after the README install command (npm install && npm link --ignore-scripts)');
	const dir = mkdtempSync(join(tmpdir(), 'gateway-tui-path-'));
	try {
		const version = execFileSync('gateway-tui', ['--version'], {cwd: dir, encoding: 'utf8'}).trim();
		const pkg = JSON.parse(execFileSync('node', ['-p', 'JSON.stringify(require("./package.json"))'], {cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8'})) as {version: string};
		assert.equal(version, pkg.version);
		assert.equal(realpathSync(onPath), fileURLToPath(new URL('../../dist/cli.js', import.meta.url)), 'the command on PATH is this checkout');
		const help = execFileSync('gateway-tui', ['keys', '--help'], {cwd: dir, encoding: 'utf8'});
		assert.match(help, /create/);
	} finally {
		rmSync(dir, {recursive: true, force: true});
	}
});
