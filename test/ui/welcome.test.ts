/** The TUI's first status line: what to do first on an empty store, a warning when other machines can connect. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {welcome} from '../../source/ui/run.js';

test('the first status line: channels first, then a key, then where help and the log are; reachable from elsewhere warns first', () => {
	const local = {host: '127.0.0.1'};
	assert.deepEqual(welcome(local, '/l/gateway-tui.log', {keys: 0, channels: 0}), {kind: 'info', text: 'No channels yet: press 2, then n to add a provider (its base URL and real key); then 1, n for a virtual key for your tools.'});
	assert.deepEqual(welcome(local, '/l/gateway-tui.log', {keys: 3, channels: 0}), welcome(local, '/l/gateway-tui.log', {keys: 0, channels: 0}), 'keys without a channel answer nothing either');
	assert.match(welcome(local, '/l/gateway-tui.log', {keys: 0, channels: 1}).text, /^No virtual keys yet: press n to create one for your tools; 3 then shows the lines that point them here\.$/);
	assert.deepEqual(welcome(local, '/l/gateway-tui.log', {keys: 1, channels: 1}), {kind: 'info', text: 'Press ? for the keys of each pane. Log: /l/gateway-tui.log'});
	assert.equal(welcome({host: '0.0.0.0'}, '/l/gateway-tui.log', {keys: 0, channels: 0}).kind, 'warn');
	assert.match(welcome({host: '0.0.0.0'}, '/l/gateway-tui.log', {keys: 0, channels: 0}).text, /^Listening on 0\.0\.0\.0: other machines can reach the gateway/);
});
