/** @jsxRuntime automatic @jsxImportSource react */
/** `?` fits at 80×24: a pane with many keys is listed in two columns, and the global keys stay in sight. */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup, render} from 'ink-testing-library';
import {HelpOverlay} from '../../source/ui/components/help-overlay.js';

afterEach(() => cleanup());

test('the Usage pane\'s keys at 80×24: two columns, every key, and "Everywhere" below', () => {
	const frame = render(<HelpOverlay pane="usage" width={80} height={19} />).lastFrame()!;
	const lines = frame.split('\n');
	assert.ok(lines.length <= 19, `the overlay is ${lines.length} lines high`);
	for (const key of ['t ', '/ ', 'g Home', 'G End', 'PgUp', 'PgDn', '↵', 'Esc']) assert.ok(frame.includes(key), `${key} is listed`);
	assert.match(frame, /Everywhere/);
	assert.match(frame, /q\/Ctrl\+C quit/);
});
