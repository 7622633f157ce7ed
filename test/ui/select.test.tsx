/** @jsxRuntime automatic @jsxImportSource react */
/**
 * The choice list: at most `limit` options in sight, and a line under them that counts the rest
 * as the table and the form do — the arrow first (`↑ 2 more · ↓ 1 more`).
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {Select} from '../../source/ui/components/select.js';
import {frameWith, keys, press, renderTui} from './helpers.js';

const options = Array.from({length: 6}, (_, index) => ({label: `option ${index + 1}`, value: String(index + 1)}));

test('a list longer than its limit counts what is out of sight above and below, arrow first', async () => {
	const {lastFrame, stdin, unmount} = renderTui(<Select options={options} focused limit={3} />);
	try {
		const top = lastFrame()!;
		assert.match(top, /option 1[\s\S]*option 3/);
		assert.match(top, /^ {2}↓ 3 more$/m, top);
		await press(stdin, keys.down, keys.down, keys.down, keys.down);
		const middle = await frameWith(lastFrame, /option 5/);
		assert.match(middle, /^ {2}↑ 2 more · ↓ 1 more$/m, middle);
		await press(stdin, keys.down);
		const bottom = await frameWith(lastFrame, /option 6/);
		assert.match(bottom, /^ {2}↑ 3 more$/m, bottom);
	} finally {
		unmount();
	}
});

test('a list that fits has no count line', () => {
	const {lastFrame, unmount} = renderTui(<Select options={options.slice(0, 3)} focused limit={3} />);
	assert.doesNotMatch(lastFrame()!, /more/);
	unmount();
});
