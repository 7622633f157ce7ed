/**
 * Sorting by time never loads ICU's collation: the first `localeCompare` in a process costs ~12 ms
 * (most of `keys list`'s sort of two keys, and the first request routed among two channels of one
 * priority), and ISO times written alike sort by their code units (`compareIso`). Names, where the
 * usage tables break a tie, still sort as the locale does.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {after, test} from 'node:test';
import {runCli, startServe, stopChild} from '../helpers/cli.js';
import {compareIso} from '../../source/base/iso-time.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'gateway-tui-collation-'));
after(() => rmSync(home, {recursive: true, force: true}));
const record = join(home, 'collation.txt');
const env = {GATEWAY_TUI_HOME: home, RECORD_COLLATION_FILE: record, NODE_OPTIONS: `--import ${join(root, 'test/helpers/record-collation.mjs')}`};
const calls = () => {
	try {
		return readFileSync(record, 'utf8').split('\n').filter(Boolean);
	} catch {
		return [];
	}
};

test('ISO times in time order by their code units, as localeCompare ordered them', () => {
	const times = ['2026-11-29T10:00:00.000Z', '2026-11-29T09:59:59.999Z', '2025-12-31T23:59:59.999Z', '2026-11-29T10:00:00.001Z', '2026-11-29', '2026-11-29T09'];
	assert.deepEqual([...times].sort(compareIso), [...times].sort((a, b) => a.localeCompare(b)));
	assert.equal(compareIso('2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'), 0);
});

test('keys list, channels list and the first request routed among two channels of one priority call no localeCompare', async () => {
	for (const name of ['first', 'second']) {
		const added = await runCli(['channels', 'add', '--name', name, '--format', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--api-key', `sk-${name}-0000000000`, '--models', 'shared'], {GATEWAY_TUI_HOME: home});
		assert.equal(added.code, 0, added.stderr);
	}
	const keys = await Promise.all(['laptop', 'ci'].map(name => runCli(['keys', 'create', '--name', name, '--json'], {GATEWAY_TUI_HOME: home})));
	for (const created of keys) assert.equal(created.code, 0, created.stderr);
	writeFileSync(record, '');
	const listed = await runCli(['keys', 'list'], env);
	assert.equal(listed.code, 0, listed.stderr);
	assert.match(listed.stdout, /laptop[\s\S]*ci|ci[\s\S]*laptop/);
	const channels = await runCli(['channels', 'list'], env);
	assert.equal(channels.code, 0, channels.stderr);
	assert.match(channels.stdout, /first[\s\S]*second/, 'equal priority: the older first');
	assert.deepEqual(calls(), []);

	const secret = (JSON.parse(keys[0]!.stdout) as {key: string}).key;
	const serve = await startServe(['--port', '0'], env);
	try {
		const response = await fetch(`${serve.url}/v1/chat/completions`, {method: 'POST', headers: {'content-type': 'application/json', authorization: `Bearer ${secret}`}, body: JSON.stringify({model: 'shared', messages: [{role: 'user', content: 'hi'}]})});
		await response.arrayBuffer();
		assert.equal(response.status, 502, 'both channels tried (neither answers)');
	} finally {
		await stopChild(serve.child);
	}
	assert.deepEqual(calls(), [], 'serve started, routed and failed over without ICU');
});
