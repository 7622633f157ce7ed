/** Copy: the system clipboard where there is one, else OSC 52 to the terminal, else by hand. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {copyMessage, createClipboard, osc52, systemClipboardMissing} from '../../source/ui/clipboard.js';

function terminal(isTTY = true) {
	const written: string[] = [];
	return {isTTY, written, write: (data: string) => written.push(data)};
}

const ok = async () => {};

test('OSC 52 is ESC ] 52 ; c ; base64 BEL, wrapped for GNU screen', () => {
	assert.equal(osc52('hi ✓'), `\u001B]52;c;${Buffer.from('hi ✓').toString('base64')}\u0007`);
	assert.equal(osc52('x', {STY: '123.pts-0'}), `\u001BP\u001B]52;c;eA==\u0007\u001B\\`);
});

test('where a system clipboard exists', () => {
	assert.equal(systemClipboardMissing({}, 'darwin'), null);
	assert.equal(systemClipboardMissing({}, 'win32'), null);
	assert.equal(systemClipboardMissing({DISPLAY: ':0'}, 'linux'), null);
	assert.equal(systemClipboardMissing({WAYLAND_DISPLAY: 'wayland-0'}, 'linux'), null);
	assert.equal(systemClipboardMissing({WSL_DISTRO_NAME: 'Ubuntu'}, 'linux'), null);
	assert.equal(systemClipboardMissing({}, 'linux'), 'no display');
	assert.equal(systemClipboardMissing({SSH_CONNECTION: '1 2 3 4'}, 'darwin'), 'over SSH', "a remote Mac's clipboard is the wrong one");
	assert.equal(systemClipboardMissing({SSH_CONNECTION: '1 2 3 4', DISPLAY: 'localhost:10.0'}, 'linux'), null, 'X forwarding reaches the user');
});

test('the system clipboard is used where there is one, and nothing goes to the terminal', async () => {
	const copied: string[] = [];
	const out = terminal();
	const clipboard = createClipboard({terminal: out, env: {DISPLAY: ':0'}, platform: 'linux', writeSystem: async text => void copied.push(text)});
	assert.deepEqual(await clipboard.copy('abc'), {method: 'system'});
	assert.deepEqual([copied, out.written], [['abc'], []]);
});

test('when clipboardy fails (or hangs), OSC 52 is written instead, and the reason kept', async () => {
	const out = terminal();
	const failing = createClipboard({terminal: out, env: {DISPLAY: ':0'}, platform: 'linux', writeSystem: async () => Promise.reject(new Error("Couldn't find the `xsel` binary"))});
	const outcome = await failing.copy('abc');
	assert.equal(outcome.method, 'osc52');
	assert.match(outcome.reason!, /system clipboard failed: Couldn't find the `xsel` binary/);
	assert.deepEqual(out.written, [osc52('abc')]);

	const hanging = createClipboard({terminal: terminal(), env: {}, platform: 'darwin', writeSystem: () => new Promise(() => {}), timeoutMs: 20});
	assert.match((await hanging.copy('abc')).reason!, /no answer within 20 ms/);
});

test('without a display OSC 52 goes straight to the terminal; without a terminal it must be done by hand', async () => {
	const out = terminal();
	const never = async () => assert.fail('no system clipboard here');
	assert.deepEqual(await createClipboard({terminal: out, env: {}, platform: 'linux', writeSystem: never}).copy('k'), {method: 'osc52', reason: 'no display'});
	assert.deepEqual(out.written, [osc52('k')]);
	assert.equal((await createClipboard({terminal: terminal(false), env: {}, platform: 'linux', writeSystem: never}).copy('k')).method, 'manual');
});

test('GATEWAY_TUI_CLIPBOARD forces a way', async () => {
	const out = terminal();
	assert.equal((await createClipboard({terminal: out, env: {GATEWAY_TUI_CLIPBOARD: 'osc52', DISPLAY: ':0'}, platform: 'linux', writeSystem: ok}).copy('k')).method, 'osc52');
	assert.equal((await createClipboard({terminal: out, env: {GATEWAY_TUI_CLIPBOARD: 'none'}, platform: 'darwin', writeSystem: ok}).copy('k')).method, 'manual');
	assert.equal((await createClipboard({terminal: out, env: {GATEWAY_TUI_CLIPBOARD: 'system'}, platform: 'linux', writeSystem: ok}).copy('k')).method, 'system');
});

test('the status says how it was copied, and what to do when it was not', () => {
	assert.deepEqual(copyMessage('OPENAI_BASE_URL snippet', {method: 'system'}, {}), {kind: 'ok', text: 'copied OPENAI_BASE_URL snippet'});
	assert.match(copyMessage('x', {method: 'osc52', reason: 'over SSH'}, {TMUX: '/tmp/tmux'}).text, /via the terminal \(OSC 52; over SSH\).*Select it with the mouse \(in tmux: set -g set-clipboard on\)/);
	const manual = copyMessage('x', {method: 'manual', reason: 'output is not a terminal'}, {});
	assert.equal(manual.kind, 'warn');
	assert.match(manual.text, /select the text on screen with the mouse/);
});
