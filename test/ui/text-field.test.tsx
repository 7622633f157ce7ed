/** @jsxRuntime automatic @jsxImportSource react */
/** Text fields edit like a shell: Ctrl+A/E/U/K/W, Alt+B/F, Home/End, ←/→, and a paste goes in at the cursor. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import {Form, textValue, type FormValues} from '../../source/ui/components/form.js';
import {frameWith, keys, press, renderTui} from './helpers.js';

afterEach(() => cleanup());

const ctrl = (letter: string) => String.fromCharCode(letter.charCodeAt(0) - 96);
const alt = (letter: string) => `\u001B${letter}`;
const home = '\u001B[1~';
const end = '\u001B[4~';

function Harness({initial, seen}: {readonly initial: string; readonly seen: string[]}) {
	return (
		<Form
			title="Edit"
			fields={[
				{kind: 'text', id: 'url', label: 'Base URL'},
				{kind: 'text', id: 'other', label: 'Other'},
			]}
			initial={{url: initial, other: ''}}
			onChange={(next: FormValues) => {
				seen.push(textValue(next, 'url'));
			}}
			onSubmit={() => {}}
			onCancel={() => {}}
			submitLabel="Save"
			active
		/>
	);
}

test('readline keys: Ctrl+U replaces a prefilled URL in one key; Ctrl+A/E, Alt+B/F, Ctrl+W/K, Home/End move and cut', async () => {
	const seen: string[] = [];
	const {stdin, lastFrame} = renderTui(<Harness initial="https://api.openai.com/v1" seen={seen} />);
	await press(stdin, ctrl('u'), ...'http://127.0.0.1:11434/v1');
	await frameWith(lastFrame, /Base URL\s+http:\/\/127\.0\.0\.1:11434\/v1/);
	assert.equal(seen.at(-1), 'http://127.0.0.1:11434/v1');

	await press(stdin, ctrl('w'));
	assert.equal(seen.at(-1), 'http://127.0.0.1:11434/', 'Ctrl+W cuts the word before the cursor');
	await press(stdin, ctrl('a'), 'X', ctrl('e'), 'Y');
	assert.equal(seen.at(-1), 'Xhttp://127.0.0.1:11434/Y');
	await press(stdin, alt('b'), alt('b'), ctrl('k'));
	assert.equal(seen.at(-1), 'Xhttp://127.0.0.1:', 'Alt+B twice, then Ctrl+K cuts to the end');
	await press(stdin, home, alt('f'), '!', end, '?');
	assert.equal(seen.at(-1), 'Xhttp!://127.0.0.1:?');
	await press(stdin, keys.left, keys.left, '\u007F');
	assert.equal(seen.at(-1), 'Xhttp!://127.0.0.:?', 'Backspace deletes before the cursor');
	await press(stdin, home, ...'ab');
	assert.equal(seen.at(-1), 'abXhttp!://127.0.0.:?');
	await frameWith(lastFrame, /Base URL\s+abXhttp!:\/\/127\.0\.0\.:\?/);
	assert.match(lastFrame()!, /Enter\/Tab next · ↑ back · Esc cancel/, 'the hint fits 80 columns: the editing keys are in the footer (narrow-layout.test.tsx)');
});
