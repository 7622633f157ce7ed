/** @jsxRuntime automatic @jsxImportSource react */
/** Keys pane: the table from given keys; create through the form, revoke after a question, copy. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import type {Capture} from '../../source/ui/commands.js';
import {KeysPane, type KeysPaneProps} from '../../source/ui/panes/keys-pane.js';
import {addChannel} from '../../source/services/channels.js';
import {createKey} from '../../source/services/keys.js';
import type {KeyRecord} from '../../source/base/records.js';
import {fakeClipboard, frameWith, keys, press, recordedActions, statusLog, renderTui} from './helpers.js';
import {listKeys} from '../../source/store/keys.js';

afterEach(() => cleanup());

const day = 86_400_000;

function record(name: string, extra: Partial<KeyRecord> = {}): KeyRecord {
	return {v: 1, id: `key_${name}`, name, description: '', secret: `sk-gtui-${name}AAAAAAAAAAAAAAAAAAAAAAAAAAAA`, hash: '0'.repeat(64), models: [], channels: [], expiresAt: null, revokedAt: null, createdAt: '2026-01-01T00:00:00.000Z', ...extra};
}

function props(overrides: Partial<KeysPaneProps> = {}): KeysPaneProps {
	return {
		keys: [],
		channels: [],
		lastUsed: new Map(),
		requests: new Map(),
		actions: {createKey: async () => assert.fail('unexpected'), editKey: async () => assert.fail('unexpected'), revokeKey: async () => assert.fail('unexpected'), rotateKey: async () => assert.fail('unexpected'), deleteKey: async () => assert.fail('unexpected')},
		clipboard: fakeClipboard(),
		onStatus: () => {},
		onCapture: () => {},
		active: true,
		width: 100,
		height: 20,
		...overrides,
	};
}

test('renders each key: name, prefix, allow-lists, state, last use and requests', () => {
	const rows = [
		record('laptop'),
		record('ci', {models: ['gpt-4o-mini'], expiresAt: new Date(Date.now() + 3 * day + 60_000).toISOString()}),
		record('old', {revokedAt: '2026-01-02T00:00:00.000Z'}),
	];
	const {lastFrame} = renderTui(<KeysPane {...props({keys: rows, lastUsed: new Map([['key_laptop', new Date(Date.now() - 5 * 60_000).toISOString()]]), requests: new Map([['key_laptop', 42]])})} />);
	const frame = lastFrame()!;
	assert.match(frame, /3 keys/);
	assert.match(frame, /laptop\s+sk-gtui-lapt…\s+all\s+all\s+active\s+5m ago\s+42/);
	assert.match(frame, /ci\s+sk-gtui-ciAA…\s+gpt-4o-mini\s+all\s+expires in 3d/);
	assert.match(frame, /old .*revoked/);
	assert.ok(!frame.includes('AAAAAAAAAAAAAAAAAAAA'), 'the full secret is not in the table');
});

test('a channel the key was limited to and that was removed shows as removed, in the table and in the edit form', async () => {
	const kept = {v: 1 as const, id: 'ch_kept', name: 'kept', format: 'openai' as const, baseUrl: 'https://api.openai.com/v1', apiKey: null, models: [{name: 'gpt-4o', upstream: 'gpt-4o'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};
	const pinned = record('pinned', {channels: ['ch_gone', 'ch_kept']});
	const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [pinned], channels: [kept], width: 120})} />);
	assert.match(lastFrame()!, /pinned\s+sk-gtui-pinn…\s+all\s+ch_gone \(remov/, "the removed channel first, marked");
	await press(stdin, 'e');
	await frameWith(lastFrame, 'Edit key "pinned"');
	await press(stdin, keys.tab, keys.tab, keys.tab);
	const form = await frameWith(lastFrame, /ch_gone \(removed\)/);
	assert.match(form, /Channels/);
});

test('n opens the form; submitting calls createKey with the chosen limits and shows the secret', async () => {
	const real = await recordedActions();
	try {
		const channel = await addChannel(real.store, {name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o,gpt-4o-mini'});
		const status = statusLog();
		const captures: Capture[] = [];
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({channels: [channel], actions: real.actions, onStatus: status.report, onCapture: captured => captures.push(captured)})} />);
		await press(stdin, 'n');
		await frameWith(lastFrame, 'New virtual key');
		assert.deepEqual(captures, ['form'], 'the form takes the keyboard');
		await press(stdin, 'l', 'a', 'p', 't', 'o', 'p', keys.enter, 'd', 'e', 'v', keys.enter);
		// Models: move to gpt-4o-mini and choose it; channels: choose the only one; expiry: 7 days.
		await press(stdin, keys.down, keys.space, keys.enter, keys.space, keys.enter, keys.down, keys.down, keys.enter);
		await frameWith(lastFrame, /Expires\s+in 7 days/);
		await press(stdin, keys.enter, keys.enter); // limits: none; then the button
		const frame = await frameWith(lastFrame, 'Key "laptop" created');
		assert.equal(real.calls.length, 1);
		assert.equal(real.calls[0]!.name, 'createKey');
		assert.deepEqual(real.calls[0]!.args[0], {name: 'laptop', description: 'dev', models: ['gpt-4o-mini'], channels: [channel.id], expiresIn: '7d', expiresAt: undefined});
		const [stored] = await listKeys(real.store);
		assert.ok(frame.includes(stored!.secret), 'the plaintext is shown once created');
		assert.deepEqual([stored!.models, stored!.channels], [['gpt-4o-mini'], [channel.id]]);
		assert.match(status.last()!.text, /Created key "laptop"/);
		assert.deepEqual(captures, ['form', null]);
	} finally {
		await real.close();
	}
});

test('the form shows a refusal from the service and stays open, the focus on the field it names', async () => {
	const real = await recordedActions();
	try {
		await createKey(real.store, {name: 'taken'});
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({actions: real.actions})} />);
		await press(stdin, 'n', 't', 'a', 'k', 'e', 'n', keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.tab, keys.enter);
		await frameWith(lastFrame, /Name: a key named "taken" exists already\. Type another name/);
		assert.match(lastFrame()!, /New virtual key/);
		// The focus went to the field the refusal names.
		await frameWith(lastFrame, /› Name\s+taken/);
		await press(stdin, keys.escape);
		await frameWith(lastFrame, frame => !frame.includes('New virtual key'));
	} finally {
		await real.close();
	}
});

test('an expiry "on a date" left empty is refused in the form, the focus on the date, and the date typed then creates the key', async () => {
	const real = await recordedActions();
	try {
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({actions: real.actions})} />);
		await press(stdin, 'n', ...'ci', keys.tab, keys.tab, keys.tab, keys.tab, keys.down, keys.down, keys.down, keys.down, keys.enter);
		await frameWith(lastFrame, /› Expiry date/);
		await press(stdin, keys.tab, keys.tab, keys.enter);
		await frameWith(lastFrame, /Expiry date: type the date, e\.g\. 2026-12-31, or choose another expiry above\./);
		await frameWith(lastFrame, /› Expiry date/);
		assert.equal(real.calls.length, 0, 'nothing was sent');
		await press(stdin, ...'2099-12-31', keys.tab, keys.tab, keys.enter);
		await frameWith(lastFrame, frame => !frame.includes('New virtual key'));
		assert.equal((real.calls[0]!.args[0] as {expiresAt?: string}).expiresAt, '2099-12-31');
	} finally {
		await real.close();
	}
});

test('an unbracketed paste ("laptop\\r…" in one chunk) is typed, then moves on like Enter', async () => {
	const real = await recordedActions();
	try {
		const {stdin, raw, lastFrame} = renderTui(<KeysPane {...props({actions: real.actions})} />);
		await press(stdin, 'n');
		await frameWith(lastFrame, 'New virtual key');
		raw.write('laptop\rmy laptop\r'); // one chunk, as a terminal without bracketed paste sends a paste
		const frame = await frameWith(lastFrame, /Space toggles/);
		assert.match(frame, /Name {9}laptop +│/, 'the line break is not in the value');
		assert.match(frame, /Description  my laptop +│/);
		await press(stdin, keys.tab, keys.tab, keys.tab, keys.tab, keys.enter);
		await frameWith(lastFrame, 'Key "laptop" created');
		assert.deepEqual(real.calls[0]!.args[0], {name: 'laptop', description: 'my laptop', models: [], channels: [], expiresIn: undefined, expiresAt: undefined});
	} finally {
		await real.close();
	}
});

test('r asks first: "n" keeps the key, "y" revokes it through revokeKey', async () => {
	const real = await recordedActions();
	try {
		const key = await createKey(real.store, {name: 'laptop'});
		const status = statusLog();
		const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [key], actions: real.actions, onStatus: status.report})} />);
		await press(stdin, 'r');
		await frameWith(lastFrame, 'Revoke key "laptop"?');
		await press(stdin, 'n');
		await frameWith(lastFrame, frame => !frame.includes('Revoke key'));
		assert.equal(real.calls.length, 0);
		assert.match(status.last()!.text, /Kept key "laptop"/);

		await press(stdin, 'r');
		await frameWith(lastFrame, 'Revoke key "laptop"?');
		await press(stdin, 'y');
		await frameWith(() => status.last()?.text, /Revoked key "laptop"/);
		assert.deepEqual(real.calls, [{name: 'revokeKey', args: [key.id]}]);
		assert.ok((await listKeys(real.store))[0]!.revokedAt);
	} finally {
		await real.close();
	}
});

test('c copies the selected key\'s secret through the clipboard port', async () => {
	const clipboard = fakeClipboard({method: 'osc52', reason: 'no display'});
	const status = statusLog();
	const rows = [record('one'), record('two')];
	const {stdin} = renderTui(<KeysPane {...props({keys: rows, clipboard, onStatus: status.report})} />);
	await press(stdin, 'j', 'c');
	await frameWith(() => status.last()?.text, /copied/);
	assert.deepEqual(clipboard.copied, [rows[1]!.secret]);
	assert.match(status.last()!.text, /copied the secret of key "two" via the terminal \(OSC 52; no display\)/);
});

test('Enter shows the details, Esc goes back', async () => {
	const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [record('laptop', {description: 'my laptop', models: ['a', 'b']})]})} />);
	await press(stdin, keys.enter);
	const frame = await frameWith(lastFrame, 'my laptop');
	assert.match(frame, /models\s+a, b/);
	await press(stdin, keys.escape);
	await frameWith(lastFrame, /NAME\s+KEY/);
});

test('a rotated secret on screen is the one c copies, even after ↑ moved the list behind it', async () => {
	const clipboard = fakeClipboard();
	const rows = [record('one'), record('two')];
	const rotated = {...rows[1]!, secret: 'sk-gtui-rotatedBBBBBBBBBBBBBBBBBBBBBBBBBBB'};
	const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: rows, clipboard, actions: {...props().actions, rotateKey: async () => rotated}})} />);
	await press(stdin, 'j', 'R');
	await frameWith(lastFrame, /Rotate key "two"\?/);
	await press(stdin, 'y');
	await frameWith(lastFrame, rotated.secret);
	await press(stdin, keys.up, 'c');
	await frameWith(() => clipboard.copied.at(-1), rotated.secret);
	assert.deepEqual(clipboard.copied, [rotated.secret]);
});

test('the key selected (↑/↓), created or rotated here is told to the app, for the Endpoints pane\'s snippets', async () => {
	const rows = [record('one'), record('two')];
	const focused: string[] = [];
	const rotated = {...rows[0]!, secret: 'sk-gtui-rotatedAAAAAAAAAAAAAAAAAAAAAAAAAAA'};
	const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: rows, onKeyInFocus: id => focused.push(id), actions: {...props().actions, rotateKey: async () => rotated}})} />);
	await frameWith(lastFrame, /NAME\s+KEY/);
	assert.deepEqual(focused, [], 'nothing told before the user moves');
	await press(stdin, 'j', 'k');
	await frameWith(() => String(focused.length), '2');
	// Rotated without moving: its new secret is the one the snippets need.
	await press(stdin, 'R');
	await frameWith(lastFrame, /Rotate key "one"\?/);
	await press(stdin, 'y');
	await frameWith(lastFrame, rotated.secret);
	assert.deepEqual(focused, [rows[1]!.id, rows[0]!.id, rows[0]!.id]);
});

test("a key's details taller than the pane (60×17) scroll by PgUp/PgDn; ↑/↓ still move to the next key, whose details start at the top", async () => {
	const rows = [record('laptop', {description: 'Work laptop: Claude Code and the build scripts'}), record('ci')];
	// 60×17: the pane gets 13 lines, the details 10 (the panel's border and title take 3).
	const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: rows, width: 60, height: 13})} />);
	await press(stdin, keys.enter);
	const top = await frameWith(lastFrame, /name +laptop/);
	const lines = top.split('\n');
	assert.equal(lines.length, 13, `the pane keeps its height:\n${top}`);
	// Twelve rows, the description wrapped at a word onto a second line: 13 lines.
	assert.match(top, /description +Work laptop: Claude Code and the build +│\n│ +scripts +│/, 'a long value wraps under its column');
	assert.match(top, /PgUp\/PgDn: lines 1–9 of 13 · Esc back/, top);
	assert.doesNotMatch(top, /limits/, 'the last rows are below');
	await press(stdin, '\u001B[6~'); // PgDn
	const bottom = await frameWith(lastFrame, /limits +-/);
	assert.match(bottom, /PgUp\/PgDn: lines 5–13 of 13/, bottom);
	assert.doesNotMatch(bottom, /name +laptop/, 'the first rows scrolled out of sight');
	assert.equal(bottom.split('\n').length, 13);
	await press(stdin, 'c');
	await frameWith(lastFrame, /PgUp\/PgDn: lines 5–13 of 13/); // copying keeps the place
	await press(stdin, '\u001B[5~'); // PgUp
	await frameWith(lastFrame, /PgUp\/PgDn: lines 1–9 of 13/);
	await press(stdin, '\u001B[6~', keys.down);
	const next = await frameWith(lastFrame, /name +ci/);
	assert.match(next, /lines 1–9 of 12/, "the next key's details (no description to wrap) from their top");
});

test('details that fit show every row and only their keys', async () => {
	const {stdin, lastFrame} = renderTui(<KeysPane {...props({keys: [record('laptop')], width: 80, height: 20})} />);
	await press(stdin, keys.enter);
	const frame = await frameWith(lastFrame, /name +laptop/);
	assert.match(frame, /limits +-/);
	assert.match(frame, /Esc back · e edit/);
	assert.doesNotMatch(frame, /PgUp/);
});
