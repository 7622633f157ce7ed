/**
 * `gateway-tui logs` lines up its columns: a listing sizes each column to its widest cell, and
 * --follow (lines printed as they land) keeps a FORMAT column wide enough for every pair of formats,
 * so a Codex request translated to an Anthropic channel, streamed, no longer pushes the rest right.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {formatLogLine, formatLogTable, logHeader} from '../../source/cli/logs.js';
import {finished} from '../usage/events.js';

/** Where each header word starts: the columns of every line must start there too. */
function starts(header: string): number[] {
	return [...header.matchAll(/\S+/g)].map(match => match.index);
}

function startOf(line: string, cell: string): number {
	const at = line.indexOf(cell);
	assert.ok(at >= 0, `"${cell}" is not in: ${line}`);
	return at;
}

const records = [
	finished({inboundFormat: 'openai', outboundFormat: 'openai', model: 'gpt-4o-mini', upstreamModel: 'gpt-4o-mini', latencyMs: 120}),
	finished({inboundFormat: 'responses', outboundFormat: 'anthropic', stream: true, model: 'gpt-5-codex', upstreamModel: 'claude-sonnet-4-6-20250929', latencyMs: 3456}),
	finished({inboundFormat: 'gemini', outboundFormat: 'openai', channelName: 'a-channel-with-a-long-name', attempts: ['first', 'a-channel-with-a-long-name'], latencyMs: 77}),
];

test('logs: a listing sizes every column to its widest cell, so every line starts each column under its header', () => {
	const [header, ...lines] = formatLogTable(records).split('\n');
	const columns = starts(header!);
	assert.equal(columns.length, 13);
	const latency = columns[7]!;
	const format = columns[6]!;
	const model = columns[4]!;
	assert.equal(startOf(lines[1]!, 'responses→anthropic stream'), format);
	assert.equal(startOf(lines[1]!, 'gpt-5-codex→claude-sonnet-4-6-20250929'), model);
	for (const [index, ms] of ['120ms', '3456ms', '77ms'].entries()) assert.equal(startOf(lines[index]!, ms), latency, `line ${index + 1}`);
	assert.equal(startOf(lines[2]!, 'first→a-channel-with-a-long-name'), columns[5]);
});

test('logs --follow: the FORMAT column holds the longest pair, so a translated Responses stream stays in line', () => {
	const header = logHeader();
	const latency = starts(header)[7]!;
	const codex = finished({inboundFormat: 'responses', outboundFormat: 'anthropic', stream: true, model: 'gpt-5-codex', upstreamModel: 'gpt-5-codex', latencyMs: 3456});
	for (const record of [records[0]!, codex]) assert.equal(startOf(formatLogLine(record), `${record.latencyMs}ms`), latency, formatLogLine(record));
});

test('logs: tokens the gateway estimated (a stream that ended before its usage came) are marked "~"; exact ones are not', () => {
	const cut = finished({stream: true, outcome: 'aborted', usage: {inputTokens: 1250, outputTokens: 20, estimated: true}, latencyMs: 900});
	assert.match(formatLogLine(cut), /900ms\s+\S+\s+~1250\s+~20\s/);
	assert.match(formatLogLine(records[0]!), /120ms\s+\S+\s+\d+\s+\d+\s/);
	assert.match(formatLogLine(cut), /ABORTED/);
	const anthropic = finished({stream: true, outcome: 'aborted', usage: {inputTokens: 1200, outputTokens: 48, estimated: true, estimatedOnly: 'output'}, latencyMs: 900});
	assert.match(formatLogLine(anthropic), /900ms\s+\S+\s+1200\s+~48\s/, 'only the count the gateway estimated');
});
