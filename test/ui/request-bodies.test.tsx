/** @jsxRuntime automatic @jsxImportSource react */
/**
 * A request's details with its bodies (opt-in): asked of the gateway when the details open, shown
 * scrollable, JSON indented, a body cut at the cap ending with how many bytes are left out; `b`
 * switches capture. And a request refused for a dead key shows the key's name in the log.
 */
import {test, afterEach} from 'node:test';
import assert from 'node:assert/strict';
import {Box} from 'ink';
import {cleanup} from 'ink-testing-library';
import {RequestDetails} from '../../source/ui/panes/request-log-view.js';
import {UsagePane} from '../../source/ui/panes/usage-pane.js';
import {BodiesContext, type BodiesSource} from '../../source/ui/request-bodies.js';
import type {BodiesLookup, RequestBodies, RequestFinished} from '../../source/base/events.js';
import {emptyRow} from '../../source/ui/session-usage.js';
import {frameWith, keys, loggedRequest, press, renderTui} from './helpers.js';

afterEach(() => cleanup());

const event = loggedRequest('req_1', {stream: true});

const captured: RequestBodies = {
	id: 'req_1',
	requestHeaders: [
		['content-type', 'application/json'],
		['authorization', 'Bearer sk-…abcd'],
	],
	request: {text: '{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"hello there"}]}', bytes: 87, omittedBytes: 0, contentType: 'application/json'},
	response: {text: `${Array.from({length: 30}, (_, index) => `data: {"delta":"part ${index}"}\n\n`).join('')}`, bytes: 70_000, omittedBytes: 68_976, contentType: 'text/event-stream'},
};

function source(initial: Omit<BodiesLookup, 'maxBytes' | 'keep'>): BodiesSource & {asked: string[]; switched: boolean[]} {
	let capturing = initial.capturing;
	const asked: string[] = [];
	const switched: boolean[] = [];
	return {
		asked,
		switched,
		lookup: async id => {
			asked.push(id);
			return {capturing, maxBytes: 65_536, keep: 100, bodies: id === 'req_1' ? initial.bodies : null};
		},
		capture: async on => {
			switched.push(on);
			capturing = on;
			return {capturing, maxBytes: 65_536, keep: 100, bodies: null};
		},
	};
}

test('without a gateway in this process the details say nothing about bodies', async () => {
	const {lastFrame} = renderTui(<RequestDetails event={event} width={76} height={22} />);
	const frame = await frameWith(lastFrame, 'Esc back to the log');
	assert.doesNotMatch(frame, /bodies/);
});

test('capture off: the details say how to turn it on, and b turns it on from the next request', async () => {
	const bodies = source({capturing: false, bodies: null});
	const {lastFrame, stdin} = renderTui(
		<BodiesContext.Provider value={bodies}>
			<RequestDetails event={event} width={100} height={22} />
		</BodiesContext.Provider>,
	);
	const off = await frameWith(lastFrame, /off: press b to keep the bodies of the requests that follow/);
	assert.doesNotMatch(off, /--capture-bodies/, 'no command-line flag inside the TUI');
	assert.deepEqual(bodies.asked, ['req_1'], 'asked once, when the details opened');
	await press(stdin, 'b');
	await frameWith(lastFrame, /not kept for this request .*capture is on/s);
	assert.deepEqual(bodies.switched, [true]);
});

test('captured bodies: headers, indented JSON, the stream as sent, a "more bytes" marker, and scrolling', async () => {
	const bodies = source({capturing: true, bodies: captured});
	const {lastFrame, stdin} = renderTui(
		<BodiesContext.Provider value={bodies}>
			<RequestDetails event={event} width={100} height={30} />
		</BodiesContext.Provider>,
	);
	const top = await frameWith(lastFrame, 'Request headers');
	assert.match(top, /below: the first 64 KiB of each, keys and credentials masked/);
	assert.match(top, /authorization: Bearer sk-…abcd/);
	assert.match(top, /Request body \(87 B, application\/json\)/);
	assert.match(top, /^ {2}"model": "gpt-4o-mini",$/m, 'whole JSON is indented');
	assert.match(top, /"content": "hello there"/);
	assert.doesNotMatch(top, /more bytes/);
	assert.match(top, /Esc back · b bodies on\/off · ↑\/↓ PgUp\/PgDn Home\/End: lines 1–\d+ of \d+/);
	await press(stdin, 'G');
	const bottom = await frameWith(lastFrame, /… 68,976 more bytes \(not kept\)/);
	assert.match(bottom, /Response body \(68 KiB, text\/event-stream\)|data: \{"delta":"part 29"\}/);
	assert.match(bottom, /data: \{"delta":"part 29"\}/);
	assert.doesNotMatch(bottom, /Request headers/);
	await press(stdin, 'g');
	await frameWith(lastFrame, 'Request headers');
	await press(stdin, keys.down, keys.down);
	const moved = await frameWith(lastFrame, /lines 3–/);
	assert.doesNotMatch(moved, /Request headers/);
});

test('a request refused for a revoked key shows the key by name in the log', async () => {
	const refused: RequestFinished = {...event, id: 'req_2', keyName: 'ci-gone', keyId: 'key_gone', status: 401, outcome: 'error', channelId: null, channelName: null, model: 'gpt-4o-mini', usage: null, error: 'The virtual key "ci-gone" was revoked at 2026-03-04T10:00:00.000Z.', eventType: 'rejected', attempts: []};
	const unknown: RequestFinished = {...refused, id: 'req_3', keyName: null, keyId: null, error: 'The API key sent is not a gateway virtual key.'};
	const usage = {today: {byKey: [emptyRow('ci-gone')], byModel: []}, all: {byKey: [], byModel: []}, lastDay: [], error: null};
	const {lastFrame} = renderTui(<UsagePane usage={usage} log={[unknown, refused]} source="session" active width={110} height={24} />);
	const frame = await frameWith(lastFrame, 'Live requests');
	assert.match(frame, /ci-gone\s+gpt-4o-mini\s+.*401/);
	assert.match(frame, /\s-\s+gpt-4o-mini\s+.*401/, 'an unknown key stays "-"');
});

test('a long error wraps under its label and the bodies take every line left: the details fill their height exactly', async () => {
	const failed: RequestFinished = {...event, status: 502, outcome: 'error', error: `${'x'.repeat(40)} ${'y'.repeat(40)}`};
	const bodies = source({capturing: true, bodies: captured});
	const {lastFrame} = renderTui(
		<BodiesContext.Provider value={bodies}>
			<Box width={60}>
				<RequestDetails event={failed} width={60} height={24} />
			</Box>
		</BodiesContext.Provider>,
	);
	const frame = await frameWith(lastFrame, 'Request headers');
	const lines = frame.split('\n');
	assert.ok(lines.some(line => /^error +x{40}$/.test(line.trimEnd())) && lines.some(line => /^ {13}y{40}$/.test(line.trimEnd())), frame);
	// Counted as Ink wraps it (two lines), not estimated from its length (four): no line left empty, none cut.
	assert.equal(lines.length, 24, frame);
	assert.match(lines.at(-1)!, /^Esc back · b bodies on\/off · .*lines/, 'the keys line is the last');
});
