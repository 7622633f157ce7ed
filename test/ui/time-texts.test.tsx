/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Relative times on screen ("1m ago", "in 20s", "expires in 3d") are read again exactly when one
 * would change, not on a fixed tick: an idle TUI redraws nothing until something on it reads
 * differently (each redraw renders the whole screen), and a pane's times never wait for unrelated
 * traffic to move them on.
 */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {cleanup} from 'ink-testing-library';
import {nextChange, relative} from '../../source/base/relative-time.js';
import {keyStateText} from '../../source/ui/text.js';
import {KeysPane, type KeysPaneProps} from '../../source/ui/panes/keys-pane.js';
import {ChannelsPane} from '../../source/ui/panes/channels-pane.js';
import type {ChannelRecord, KeyRecord} from '../../source/base/records.js';
import {delay, fakeClipboard, frameWith, keys, press, renderTui} from './helpers.js';
import {randomOf} from '../helpers/random.js';

afterEach(() => cleanup());

const t0 = Date.parse('2026-11-29T12:00:00.000Z');
const at = (offsetMs: number) => new Date(t0 + offsetMs).toISOString();

test('nextChange: the first millisecond at which any of the texts reads differently, or null when none does within a day', () => {
	const since = (offsetMs: number) => (now: number) => relative(at(offsetMs), now);
	assert.equal(nextChange([since(-(10 * 60_000 + 30_000))], t0), t0 + 30_000, '"10m ago" becomes "11m ago" 30 s on');
	assert.equal(nextChange([since(-5_400)], t0), t0 + 600, '"5s ago" becomes "6s ago" at the next whole second');
	assert.equal(nextChange([since(25_000)], t0), t0 + 1, '"in 25s" becomes "in 24s" as soon as less than 25 s are left');
	assert.equal(nextChange([since(25_500)], t0), t0 + 501);
	assert.equal(nextChange([since(-3 * 3_600_000 - 60_000), since(-90_000)], t0), t0 + 30_000, 'the earliest of several');
	assert.equal(nextChange([since(-40 * 86_400_000)], t0), t0 + 86_400_000, '"40d ago" holds for a day');
	const key = (expiresAt: string | null, revokedAt: string | null = null): KeyRecord => ({v: 1, id: 'key_a', name: 'a', description: '', secret: 'sk-gtui-a', hash: '0'.repeat(64), models: [], channels: [], expiresAt, revokedAt, createdAt: at(-86_400_000)});
	assert.equal(nextChange([now => keyStateText(key(at(400)), now)], t0), t0 + 400, '"expires in 0s" turns "expired" when it does');
	assert.equal(nextChange([now => keyStateText(key(null), now), now => keyStateText(key(at(400), at(-1)), now), () => 'never'], t0), null, 'active for good, revoked, a fixed text: nothing to redraw for');
	assert.equal(nextChange([], t0), null);
});

test('nextChange reads a pane of 100 keys\' times about twice each, searching only a text that changes before the earliest found so far, with the same answer as a search of all of them together', () => {
	// Ages from 1 min to 100 days and countdowns, in random order; the earliest change is somewhere inside.
	const random = randomOf(38);
	const offsets = Array.from({length: 100}, () => (random(2) === 0 ? -1 : 1) * (60_000 + random(100 * 86_400_000)));
	let readings = 0;
	const texts = offsets.map(offset => (now: number) => {
		readings++;
		return relative(at(offset), now);
	});
	const answer = nextChange(texts, t0);
	// The answer, found the slow way: every text read at each step of one search.
	const first = texts.map(text => text(t0));
	let [same, changed] = [t0, t0 + 86_400_001];
	while (changed - same > 1) {
		const middle = Math.floor((same + changed) / 2);
		if (texts.some((text, index) => text(middle) !== first[index])) changed = middle;
		else same = middle;
	}
	assert.equal(answer, changed);
	readings = 0;
	nextChange(texts, t0);
	assert.ok(readings <= 400, `${readings} readings for 100 texts (every text at every step of one search: ~2,000)`);
});

const record = (name: string, extra: Partial<KeyRecord> = {}): KeyRecord => ({v: 1, id: `key_${name}`, name, description: '', secret: `sk-gtui-${name}AAAAAAAAAAAAAAAAAAAAAAAAAAAA`, hash: '0'.repeat(64), models: [], channels: [], expiresAt: null, revokedAt: null, createdAt: '2026-01-01T00:00:00.000Z', ...extra});

function keysProps(overrides: Partial<KeysPaneProps>): KeysPaneProps {
	const unexpected = async () => assert.fail('unexpected');
	return {keys: [], channels: [], lastUsed: new Map(), requests: new Map(), actions: {createKey: unexpected, editKey: unexpected, revokeKey: unexpected, rotateKey: unexpected, deleteKey: unexpected}, clipboard: fakeClipboard(), onStatus: () => {}, onCapture: () => {}, active: true, width: 100, height: 20, ...overrides};
}

test('the Keys pane moves its times on by itself when they change: "1m ago" turns "2m ago", "expires in 0s" turns "expired"', async () => {
	const now = Date.now();
	const rows = [record('laptop'), record('ci', {expiresAt: new Date(now + 700).toISOString()})];
	const {lastFrame} = renderTui(<KeysPane {...keysProps({keys: rows, lastUsed: new Map([['key_laptop', new Date(now - 120_000 + 600).toISOString()]])})} />);
	assert.match(lastFrame()!, /laptop .* active\s+1m ago/);
	assert.match(lastFrame()!, /ci .* expires in 0s/);
	const later = await frameWith(lastFrame, frame => /2m ago/.test(frame) && /ci .* expired/.test(frame), 3000);
	assert.match(later, /laptop .* active\s+2m ago/, 'no prop changed: the pane read its times again');
});

test('a screen whose times hold still is not redrawn; the pane out of view asks for no redraw at all', async () => {
	const now = Date.now();
	const used = new Map([['key_laptop', new Date(now - 10 * 60_000 - 1000).toISOString()]]);
	const shown = renderTui(<KeysPane {...keysProps({keys: [record('laptop')], lastUsed: used})} />);
	await delay(50);
	const before = shown.frames.length;
	await delay(600);
	assert.equal(shown.frames.length, before, '"10m ago" reads the same for most of a minute: no redraw meanwhile');
	cleanup();
	const hidden = renderTui(<KeysPane {...keysProps({keys: [record('laptop')], lastUsed: new Map([['key_laptop', new Date(now - 60_000 + 300).toISOString()]]), active: false})} />);
	await delay(50);
	const hiddenBefore = hidden.frames.length;
	await delay(700);
	assert.equal(hidden.frames.length, hiddenBefore, 'not in view: "59s ago" is left until the pane is shown again');
});

test("a channel's details count down to its next trial request by themselves", async () => {
	const now = Date.now();
	const channel: ChannelRecord = {v: 1, id: 'ch_openai', name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-real-0123456789abcdef', models: [{name: 'gpt-4o', upstream: 'gpt-4o'}], enabled: true, priority: 0, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z'};
	const health = {state: 'unavailable' as const, reason: 'HTTP 503 from the provider (3 failures in a row)', since: new Date(now - 5000).toISOString(), retryAt: new Date(now + 2_500).toISOString()};
	const unexpected = async () => assert.fail('unexpected call');
	const {stdin, lastFrame} = renderTui(
		<ChannelsPane channels={[channel]} health={new Map([['ch_openai', health]])} actions={{addChannel: unexpected, editChannel: unexpected, setChannelEnabled: unexpected, removeChannel: unexpected, testChannel: unexpected}} onStatus={() => {}} onCapture={() => {}} active width={110} height={20} />,
	);
	await press(stdin, keys.enter);
	await frameWith(lastFrame, /retry at\s+\d\d:\d\d:\d\d \(in 2s\)/);
	await frameWith(lastFrame, /retry at\s+\d\d:\d\d:\d\d \(in 1s\)/, 2000);
	await frameWith(lastFrame, /retry at\s+\d\d:\d\d:\d\d \(0s ago\)/, 2000);
});
