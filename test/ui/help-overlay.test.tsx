/** @jsxRuntime automatic @jsxImportSource react */
/**
 * `?` fits at 80×24: a pane with many keys is listed in two columns, and the global keys stay in
 * sight. Where even two columns do not fit (60×17), the help scrolls instead of cutting sentences.
 */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup, render} from 'ink-testing-library';
import {HelpOverlay} from '../../source/ui/components/help-overlay.js';
import {globalBindings, helpSections, keyLabel, panes, type PaneId} from '../../source/ui/commands.js';
import {frameWith, keys, press, renderTui} from './helpers.js';
import {statusMessageLines as barLines} from '../../source/ui/components/chrome.js';
import {recentMessages, withMessage} from '../../source/ui/hooks/use-status.js';

afterEach(() => cleanup());

test('the Usage pane\'s keys at 80×24: two columns, every key, and "Everywhere" below', () => {
	const frame = render(<HelpOverlay pane="usage" width={80} height={19} />).lastFrame()!;
	const lines = frame.split('\n');
	assert.ok(lines.length <= 19, `the overlay is ${lines.length} lines high`);
	for (const key of ['t ', '/ ', 'g Home', 'G End', 'PgUp', 'PgDn', '↵', 'Esc']) assert.ok(frame.includes(key), `${key} is listed`);
	assert.match(frame, /Everywhere/);
	assert.match(frame, /q\/Ctrl\+C quit/);
	assert.doesNotMatch(frame, /lines \d+–\d+ of/, 'no scrolling where everything fits');
});

/** The lines between the frame's title and its last line (the scroll hint, when it scrolls), without the borders. */
const inside = (frame: string) => frame.split('\n').slice(2, -1).map(line => line.slice(2, -2));
const hint = /lines (\d+)–(\d+) of (\d+)/;
const squash = (text: string) => text.replaceAll(/\s+/g, ' ').trim();

/** Scrolls a pane's help from the top to the end a line at a time; every frame checked, every line seen once, in order. */
async function scrolledThrough(pane: PaneId, width: number, height: number): Promise<{seen: string[]; frames: number}> {
	const {lastFrame, stdin} = renderTui(<HelpOverlay pane={pane} width={width} height={height} />);
	const check = (frame: string) => {
		assert.equal(frame.split('\n').length, height, `${pane}: the overlay is as high as its box:\n${frame}`);
		assert.doesNotMatch(frame, /…/, `${pane}: no sentence cut:\n${frame}`);
		const at = hint.exec(frame);
		assert.ok(at, `${pane}: it says where you are:\n${frame}`);
		return {first: Number(at[1]), last: Number(at[2]), total: Number(at[3]), lines: inside(frame).slice(0, -1)};
	};
	let view = check(lastFrame()!);
	assert.equal(view.first, 1);
	const seen = [...view.lines];
	let frames = 1;
	while (view.last < view.total) {
		await press(stdin, 'j');
		const next = check(await frameWith(lastFrame, `lines ${view.first + 1}–`));
		seen.push(next.lines.at(-1)!);
		view = next;
		frames++;
	}
	assert.equal(seen.length, view.total, `${pane}: every line seen`);
	cleanup();
	return {seen, frames};
}

test('at 60×17 the help of every pane scrolls, and every sentence and the global keys are there whole', async () => {
	for (const pane of panes) {
		const {seen} = await scrolledThrough(pane.id, 60, 11);
		const text = squash(seen.join(' '));
		for (const {bindings} of helpSections(pane.id)) {
			for (const binding of bindings) assert.ok(text.includes(squash(`${binding.keys.map(keyLabel).join(' ')} ${binding.help}`)), `${pane.id}: "${binding.help}" whole:\n${seen.join('\n')}`);
		}
		for (const binding of globalBindings) assert.ok(text.includes(`${binding.keys.map(keyLabel).join('/')} ${binding.label}`), `${pane.id}: ${binding.label}`);
		assert.match(seen.join('\n'), /^Everywhere/m);
	}
});

test('the help scrolls by a page with PgDn/PgUp, to its ends with End/Home, and no further than them', async () => {
	const {lastFrame, stdin} = renderTui(<HelpOverlay pane="usage" width={60} height={11} />);
	const at = hint.exec(lastFrame()!)!;
	const [view, total] = [Number(at[2]), Number(at[3])];
	// The range the frame says once it shows [first, last]; or, when a key must not move it, the frame after a redraw it would have caused.
	const range = async (expected?: readonly number[]) => {
		const frame = expected ? await frameWith(lastFrame, `lines ${expected[0]}–${expected[1]} of`).catch(() => lastFrame()!) : lastFrame()!;
		const shown = hint.exec(frame)!;
		return [Number(shown[1]), Number(shown[2]), Number(shown[3])];
	};
	assert.ok(total > 2 * view, `the Usage pane's help is longer than two pages at 60×17 (${total} lines, ${view} a page)`);
	await press(stdin, keys.pageDown);
	assert.deepEqual(await range([view + 1, 2 * view, total]), [view + 1, 2 * view, total]);
	await press(stdin, keys.pageUp);
	assert.deepEqual(await range([1, view, total]), [1, view, total]);
	await press(stdin, keys.up, 'k');
	assert.deepEqual(await range([1, view, total]), [1, view, total], 'not above the first line');
	await press(stdin, 'j');
	assert.deepEqual(await range([2, view + 1, total]), [2, view + 1, total], 'one line down from the first, not from above it');
	await press(stdin, 'k');
	await press(stdin, keys.end);
	assert.deepEqual(await range([total - view + 1, total, total]), [total - view + 1, total, total]);
	assert.match(lastFrame()!, /q\/Ctrl\+C quit/, 'the global keys end it');
	await press(stdin, keys.down, 'j', keys.pageDown, ' ');
	assert.deepEqual(await range([total - view + 1, total, total]), [total - view + 1, total, total], 'not below the last line');
	await press(stdin, 'k');
	assert.deepEqual(await range([total - view, total - 1, total]), [total - view, total - 1, total], 'one line up from the last, not from below it');
	await press(stdin, keys.home);
	assert.deepEqual(await range([1, view, total]), [1, view, total]);
	await press(stdin, 'G');
	assert.deepEqual(await range([total - view + 1, total, total]), [total - view + 1, total, total]);
	await press(stdin, 'g');
	assert.deepEqual(await range([1, view, total]), [1, view, total]);
});

test('where the help fits, the scrolling keys do nothing', async () => {
	const {lastFrame, stdin} = renderTui(<HelpOverlay pane="keys" width={100} height={30} />);
	const before = lastFrame();
	assert.doesNotMatch(before!, hint);
	await press(stdin, 'j', keys.pageDown, keys.end);
	assert.equal(lastFrame(), before);
});


test('a status message the bar cuts ends saying where it is whole, and the help shows it whole with the warnings before it, newest first', async () => {
	const long = 'channel "anthropic" has no model "claude-haiku-5-5" any more (HTTP 404): other channels serving it go first for 10 min. Check it: gateway-tui channels test anthropic';
	const bar = barLines(long, 80);
	assert.equal(bar.length, 2);
	assert.ok(bar.every(line => line.length <= 76), bar.join('\n'));
	assert.match(bar[1]!, /… \(\? shows all\)$/);
	assert.deepEqual(barLines('Copied the key.', 80), ['Copied the key.'], 'a message that fits is not marked');
	// What the help is given: the newest message, then earlier warnings and errors only, each text once.
	const at = new Date(2026, 10, 30, 9, 15, 0).getTime();
	let recent = withMessage([], {kind: 'warn', text: 'first warning'}, at);
	recent = withMessage(recent, {kind: 'ok', text: 'Copied the key.'}, at + 1000);
	recent = withMessage(recent, {kind: 'warn', text: long}, at + 2000);
	recent = withMessage(recent, {kind: 'error', text: 'first warning'}, at + 3000);
	assert.deepEqual(recent.map(shown => shown.message.text), ['first warning', long], 'the result is dropped once another message came; a repeated text moves to the front');
	for (let index = 0; index < 10; index++) recent = withMessage(recent, {kind: 'warn', text: `warning ${index}`}, at + 4000 + index);
	assert.equal(recent.length, 1 + recentMessages);
	const messages = withMessage(withMessage([], {kind: 'warn', text: 'an older warning'}, at), {kind: 'warn', text: long}, at + 61_000);
	const {lastFrame} = renderTui(<HelpOverlay pane="keys" width={80} height={19} messages={messages} />);
	const seen = squash(inside(lastFrame()!).join(' '));
	assert.ok(seen.includes(`Messages, newest first 09:16:01 ${long} 09:15:00 an older warning`), seen);
	assert.match(lastFrame()!, /Keys\s/, 'the pane\'s keys follow');
});
