/** Terminal input cut into keys (keys.ts) and handed to the layers in order (keyboard.ts). */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync} from 'node:fs';
import {join} from 'node:path';
import {EventEmitter} from 'node:events';
import {KeyParser, parseKeys, type Key} from '../../source/ui/keys.js';
import {Keyboard, type Layer} from '../../source/ui/keyboard.js';
import {editLine} from '../../source/ui/line-edit.js';
import {delay} from './helpers.js';

const brief = (key: Key) => [key.name, key.text.trim(), key.ctrl ? 'ctrl' : '', key.meta ? 'meta' : '', key.shift ? 'shift' : ''].filter(Boolean).join(' ');
const names = (input: string) => parseKeys(input).map(brief);

test('characters, Enter, Tab, Backspace, Space and Ctrl+letters', () => {
	assert.deepEqual(names('ab\r\n\tc\u007F \u0015'), ['char a', 'char b', 'enter', 'enter', 'tab', 'char c', 'backspace', 'space', 'char u ctrl']);
	assert.deepEqual(names('Ré😀'), ['char R', 'char é', 'char 😀'], 'capitals and characters beyond one UTF-16 unit stay whole');
	assert.deepEqual(names('\u0003\u0017\u0001\u0005\u000B'), ['char c ctrl', 'char w ctrl', 'char a ctrl', 'char e ctrl', 'char k ctrl']);
});

test('escape sequences: arrows, Home/End in their several spellings, PgUp/PgDn, Delete, Shift+Tab, modifiers', () => {
	assert.deepEqual(names('\u001B[A\u001B[B\u001B[C\u001B[D'), ['up', 'down', 'right', 'left']);
	assert.deepEqual(names('\u001BOA\u001BOH\u001BOF'), ['up', 'home', 'end'], 'SS3 (application cursor keys)');
	assert.deepEqual(names('\u001B[H\u001B[F\u001B[1~\u001B[4~\u001B[7~\u001B[8~'), ['home', 'end', 'home', 'end', 'home', 'end']);
	assert.deepEqual(names('\u001B[5~\u001B[6~\u001B[3~\u001B[Z'), ['pageup', 'pagedown', 'delete', 'tab shift']);
	assert.deepEqual(names('\u001B[1;5C\u001B[1;3D\u001B[1;2A'), ['right ctrl', 'left meta', 'up shift'], 'Ctrl+→, Alt+←, Shift+↑');
	assert.deepEqual(names('\u001B[15~\u001BOP'), ['function', 'function'], 'F5, F1: keys of no use here, never typed');
	assert.deepEqual(names('\u001B[99;5u'), ['char c ctrl'], 'a kitty-protocol key');
});

test('Alt+key is ESC and the key in one chunk; a lone Escape is Escape', () => {
	assert.deepEqual(names('\u001Bb\u001Bf\u001B\u007F\u001B\r'), ['char b meta', 'char f meta', 'backspace meta', 'enter meta']);
	assert.deepEqual(names('\u001B'), ['escape']);
	assert.deepEqual(names('\u001B\u001B[D'), ['left meta'], 'Alt+← as some terminals send it');
	assert.deepEqual(names('\u001B\u001Bq'), ['escape', 'char q meta']);
});

test('an ESC that ends a chunk waits for the rest: a split sequence stays one key, Escape then n stays two', async () => {
	const seen: Key[] = [];
	const parser = new KeyParser(key => seen.push(key), {escapeMs: 20});
	parser.push('\u001B');
	assert.equal(seen.length, 0, 'not yet: it may be the start of a sequence');
	parser.push('[A');
	assert.deepEqual(seen.map(brief), ['up']);
	parser.push('\u001B');
	parser.push('n');
	assert.deepEqual(seen.map(brief), ['up', 'escape', 'char n'], 'tmux sending Escape, then n, is not Alt+N');
	parser.push('\u001B');
	await delay(40);
	assert.deepEqual(seen.map(brief), ['up', 'escape', 'char n', 'escape'], 'after the timeout, a lone ESC is Escape');
	parser.push('\u001B[1;');
	parser.push('5D');
	assert.deepEqual(seen.at(-1) && brief(seen.at(-1)!), 'left ctrl');
	parser.dispose();
});

test('a bracketed paste is one key with the text, even across chunks, and types it as one line', () => {
	const seen: Key[] = [];
	const parser = new KeyParser(key => seen.push(key));
	parser.push('x\u001B[200~sk-abc\r\ndef\u001B[2');
	parser.push('01~y');
	parser.dispose();
	assert.deepEqual(seen.map(key => [key.name, key.text]), [['char', 'x'], ['paste', 'sk-abc\ndef'], ['char', 'y']]);
	assert.deepEqual(editLine({value: '', cursor: 0}, {...seen[1]!, text: 'sk-abc\n'}), {value: 'sk-abc', cursor: 6}, 'a last line break is dropped');
	assert.deepEqual(editLine({value: '', cursor: 0}, seen[1]!), {value: 'sk-abc def', cursor: 10});
});

type Seen = Array<`${Layer}:${string}`>;

function listen(keyboard: Keyboard, seen: Seen, layer: Layer, takes: (key: Key) => boolean) {
	const subscriber = {layer, active: true, handler: (key: Key) => (takes(key) ? (seen.push(`${layer}:${brief(key)}`), true) : false)};
	return {subscriber, off: keyboard.subscribe(subscriber)};
}

test('each key goes to the highest layer that takes it: help > question > field > form > pane > global', async () => {
	const keyboard = new Keyboard();
	const seen: Seen = [];
	listen(keyboard, seen, 'global', () => true);
	listen(keyboard, seen, 'pane', key => key.text === 'n');
	const form = listen(keyboard, seen, 'form', () => true);
	const field = listen(keyboard, seen, 'field', key => key.name === 'char');
	form.subscriber.active = false;
	field.subscriber.active = false;
	keyboard.feed('nq');
	assert.deepEqual(seen, ['pane:char n', 'global:char q']);
	form.subscriber.active = true;
	field.subscriber.active = true;
	keyboard.feed('a\tq');
	assert.deepEqual(seen.slice(2), ['field:char a', 'form:tab', 'field:char q'], 'a form keeps every key from the pane and the global keys');
	const help = listen(keyboard, seen, 'help', key => key.name === 'escape');
	keyboard.feed('\u001B\u001B');
	await keyboard.idle();
	assert.deepEqual(seen.slice(5), ['help:escape', 'help:escape']);
	help.off();
	field.off();
	keyboard.feed('z');
	assert.deepEqual(seen.slice(7), ['form:char z']);
});

test('a key that hands the keyboard on holds the keys after it until the render: then they go on, in order', async () => {
	const keyboard = new Keyboard();
	const seen: Seen = [];
	const form = listen(keyboard, seen, 'form', () => true);
	form.subscriber.active = false;
	listen(keyboard, seen, 'pane', key => {
		if (key.text === 'n') keyboard.hold();
		return true;
	});
	keyboard.feed('nab\r');
	assert.deepEqual(seen, ['pane:char n'], 'held: the form is not on screen yet');
	form.subscriber.active = true; // the render that shows the form…
	keyboard.settled(); // …and its layout effect
	await keyboard.idle();
	assert.deepEqual(seen, ['pane:char n', 'form:char a', 'form:char b', 'form:enter']);
});

test('Esc then a key, joined into Alt+key (tmux): a text field’s Alt+b stays a word move; an Alt+key no one uses is Escape, then the key, after Escape’s render', async () => {
	const keyboard = new Keyboard();
	const seen: Seen = [];
	const field = listen(keyboard, seen, 'field', key => key.meta && key.text === 'b');
	listen(keyboard, seen, 'form', key => {
		if (key.name !== 'escape') return false;
		field.subscriber.active = false;
		keyboard.hold(); // Escape closes the form: the keys after it wait for that render
		return true;
	});
	listen(keyboard, seen, 'global', key => !key.meta && (key.text === '2' || key.text === 'q' || key.text === 'b'));
	keyboard.feed('\u001Bb');
	assert.deepEqual(seen, ['field:char b meta'], 'a binding of its own: Alt+b');
	keyboard.feed('\u001B2q');
	assert.deepEqual(seen.slice(1), ['form:escape'], 'the 2 waits for the render that closes the form');
	keyboard.settled();
	await keyboard.idle();
	assert.deepEqual(seen.slice(1), ['form:escape', 'global:char 2', 'global:char q']);
	keyboard.feed('\u001Bb');
	keyboard.settled(); // the form, still listening here, held the keys at its Escape again
	await keyboard.idle();
	assert.deepEqual(seen.slice(4), ['form:escape', 'global:char b'], 'a word key where no text field is focused: Escape, then b');
	keyboard.feed('\u001B[1;3A\u001B\r');
	await keyboard.idle();
	assert.deepEqual(seen.slice(6), [], 'Alt+↑ sent as a modifier is one key, and ESC Enter (Shift+Enter in some terminals) stays Alt+Enter: neither split');
});

test('a form takes every key, and Esc then 2 joined by tmux still closes it and shows pane 2', async () => {
	const keyboard = new Keyboard();
	const seen: Seen = [];
	const form = listen(keyboard, seen, 'form', key => {
		if (key.name === 'escape') {
			form.subscriber.active = false;
			keyboard.hold();
		}
		return true;
	});
	const field = listen(keyboard, seen, 'field', key => key.name === 'char' && !key.ctrl);
	listen(keyboard, seen, 'global', key => key.text === '2');
	keyboard.feed('ab\u001B2');
	assert.deepEqual(seen, ['field:char a', 'field:char b', 'form:escape']);
	field.subscriber.active = false;
	keyboard.settled();
	await keyboard.idle();
	assert.deepEqual(seen.slice(3), ['global:char 2']);
});

test('raw mode: the keyboard reads the terminal itself and gives it back', () => {
	class Terminal extends EventEmitter {
		readonly isTTY = true;
		raw = false;
		reading = false;
		setRawMode(mode: boolean) {
			this.raw = mode;
		}
		setEncoding() {}
		resume() {
			this.reading = true;
		}
		pause() {
			this.reading = false;
		}
	}
	const terminal = new Terminal();
	const keyboard = new Keyboard();
	const seen: Seen = [];
	listen(keyboard, seen, 'global', () => true);
	const detach = keyboard.attach(terminal);
	assert.deepEqual([terminal.raw, terminal.reading], [true, true]);
	terminal.emit('data', 'q\u0003');
	assert.deepEqual(seen, ['global:char q', 'global:char c ctrl'], 'Ctrl+C is a key like any other (the App quits on it)');
	detach();
	assert.deepEqual([terminal.raw, terminal.reading, terminal.listenerCount('data')], [false, false, 0]);
});

test("no part of the TUI reads keys through Ink (useInput, ink-select-input, ink-text-input): they would lag a render and miss keys", () => {
	const files = (dir: string): string[] => readdirSync(dir).flatMap(name => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
	const offenders = files(join(import.meta.dirname, '../../source/ui')).filter(file => /\buseInput\b|ink-select-input|ink-text-input|\buseStdin\b/.test(readFileSync(file, 'utf8')));
	assert.deepEqual(offenders, []);
});
