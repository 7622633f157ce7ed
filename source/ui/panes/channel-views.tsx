/** What the Channels pane shows besides its form: the table's columns, a test's result, a channel's details (prices and health included). */
import type {Column} from '../components/table.js';
import {DetailsWindow, type Detail} from '../components/details.js';
import {formatModels} from '../../services/parse.js';
import {probeOutcome, probeWarns} from '../../services/channels.js';
import {formatPrices} from '../../base/prices.js';
import type {ChannelRecord} from '../../base/records.js';
import type {HealthInfo} from '../health-view.js';
import {clock, latency, logTime, relative} from '../text.js';
import {channelSpark, sparkline} from '../components/sparkline.js';
import type {Series, TrafficSnapshot} from '../traffic.js';
import {theme} from '../theme.js';
import {maskSecret} from '../../base/secrets.js';
import {lackingAt} from '../../base/events.js';
import {type ProbeResult, type TestedBy} from '../../base/probe-result.js';

const healthColors = {healthy: theme.ok, degraded: theme.warn, unavailable: theme.error} as const;

export function channelColumns(health?: ReadonlyMap<string, HealthInfo>, traffic?: TrafficSnapshot): Array<Column<ChannelRecord>> {
	return [
		{header: 'NAME', width: 8, grow: 1, wants: {width: 16, priority: 2.5}, value: row => row.name},
		{header: 'FORMAT', width: 9, value: row => row.format, priority: 3},
		{header: 'BASE URL', width: 12, grow: 1, whole: true, value: row => row.baseUrl},
		{header: 'MODELS', width: 8, grow: 3, value: row => formatModels(row.models), priority: 1},
		{header: 'ON', width: 3, value: row => (row.enabled ? 'on' : 'off'), color: row => (row.enabled ? theme.ok : theme.muted)},
		{header: 'PRIO', width: 4, align: 'right', value: row => String(row.priority), priority: 4},
		{header: 'HEALTH', width: 11, value: row => healthText(row, health), color: row => healthColor(row, health), priority: 2},
		...(traffic ? [{header: 'LAST HOUR', width: 12, value: (row: ChannelRecord) => channelSpark(traffic.channels.get(row.id), 12), color: () => theme.accent, priority: 5}] : []),
	];
}

/**
 * A disabled channel is not in use, whatever its last measured health; a healthy one whose provider
 * lately lacked one of its models says so (its details say which, and until when).
 */
export function healthText(row: ChannelRecord, health: ReadonlyMap<string, HealthInfo> | undefined, now = Date.now()): string {
	if (!row.enabled) return 'not in use';
	const info = health?.get(row.id);
	const lacked = lackedNow(info, now);
	if (lacked > 0) return lacked === 1 ? 'lacks model' : `lacks ${lacked}`;
	return info?.state ?? '-';
}

/** How many of its models a healthy channel lately lacked (0 for one with trouble: its state says more). */
const lackedNow = (info: HealthInfo | undefined, now: number) => (info?.state === 'healthy' ? lackingAt(info.lacking, now).length : 0);

function healthColor(row: ChannelRecord, health: ReadonlyMap<string, HealthInfo> | undefined): string {
	if (!row.enabled) return theme.muted;
	const info = health?.get(row.id);
	return lackedNow(info, Date.now()) > 0 ? theme.warn : healthColors[info?.state ?? 'healthy'];
}

export function probeText(name: string, result: ProbeResult): string {
	return probeOutcome(name, result, '(e edits the channel)');
}

/**
 * A test that answered but found models to change, in the status bar's two lines: what, and where
 * the whole text is (the details' "last test": Enter opens them, unless `inDetails` they are open).
 */
export function probeWarningText(name: string, result: Extract<ProbeResult, {ok: true}>, inDetails = false): string {
	const parts: string[] = [];
	if (result.unlisted.length > 0) parts.push(`does not list ${result.unlisted.join(', ')}`);
	if (result.retiring.length > 0) parts.push(`retires ${result.retiring.map(({model, retiresAt}) => (retiresAt ? `${model} on ${retiresAt.slice(0, 10)}` : `${model} (no date given)`)).join(', ')}`);
	return `Channel "${name}" answered, but its provider ${parts.join(' and ')}: e edits them${inDetails ? '; "last test" says all' : ', Enter shows all'}.`;
}

/** Who measured a health this process did not: the gateways serving on the store. */
function measuredBy(state: HealthInfo['state'], {gateways, affected}: NonNullable<HealthInfo['elsewhere']>): string {
	const who = gateways === 1 ? 'the gateway serving on this store' : `the ${gateways} gateways serving on this store`;
	return `${who} (this process does not serve)${gateways > 1 && affected > 0 ? `; ${affected} of them ${affected === 1 ? 'sees' : 'see'} it ${state}` : ''}`;
}

/** The health rows: state and since when, why, and (while unavailable) when the next trial request may go. */
export function healthRows(health: HealthInfo | undefined, now = Date.now()): Detail[] {
	if (!health) return [['health', '- (not measured: this process does not serve, and no gateway serving on this store publishes it)']];
	const rows: Detail[] = [['health', `${health.state}${health.since ? ` since ${clock(health.since)} (${relative(health.since, now)})` : ''}`, healthColors[health.state]]];
	if (health.elsewhere) rows.push(['measured by', measuredBy(health.state, health.elsewhere)]);
	if (health.reason) rows.push(['reason', health.reason]);
	const lacking = lackingAt(health.lacking, now);
	if (lacking.length > 0) {
		const them = lacking.length === 1 ? 'it' : 'them';
		const models = lacking.map(({model, until}) => `${model} until ${clock(until)} (${relative(until, now)})`).join(', ');
		rows.push(['lacks', `${models}: its provider answered 404 (retired or renamed?), so other channels serving ${them} go first till then (t tests the channel, e edits it)`, theme.warn]);
	}
	if (health.retryAt) rows.push(['retry at', `${clock(health.retryAt)} (${relative(health.retryAt, now)}): one trial request, then healthy again if it succeeds`]);
	return rows;
}

/** Requests per minute, error rate and p50 latency of the last hour, with its sparkline. */
export function trafficText(series: Series | undefined): string {
	if (!series || series.total.requests === 0) return 'no requests in the last hour';
	const {requests, errors, p50} = series.total;
	const rate = `${(requests / 60).toFixed(requests >= 600 ? 0 : 1)}/min`;
	return `${sparkline(series.requests, 30)}  ${requests} request${requests === 1 ? '' : 's'} (${rate}), ${Math.round((errors / requests) * 100)}% errors, p50 ${p50 === null ? '-' : latency(p50)}`;
}

/**
 * `stale`: the channel was changed after its last test, whose result no longer says anything of it.
 * `testedAt`: when that test ran (ISO), this TUI's or one kept in the store from before; `testedBy`:
 * a test (`t`, `channels test`) or the gateway's `--probe-every` check.
 */
export type ChannelDetailsOf = {readonly channel: ChannelRecord; readonly health?: HealthInfo; readonly test?: ProbeResult; readonly testedAt?: string; readonly testedBy?: TestedBy; readonly stale?: boolean; readonly traffic?: Series};

/** " (tested at 14:03:07)" today, " (checked by the gateway on Nov 27)" before; `last` for the test before a change ("last tested"). */
const testedWhen = (at: string | undefined, by: TestedBy, last = false) => {
	if (!at) return '';
	const when = logTime(at);
	const words = by === 'probe' ? `${last ? 'last ' : ''}checked by the gateway` : `${last ? 'last ' : ''}tested`;
	return ` (${words} ${when.includes(':') ? 'at' : 'on'} ${when})`;
};

export function channelDetailRows({channel, health, test, testedAt, testedBy = 'test', stale = false, traffic}: ChannelDetailsOf): Detail[] {
	return [
		['name', channel.name],
		['id', channel.id],
		['format', channel.format],
		['base URL', channel.baseUrl],
		['API key', maskSecret(channel.apiKey)],
		['models', formatModels(channel.models).replaceAll(',', ', ')],
		['prices', `${formatPrices(channel.prices)}${channel.prices ? ' (USD per 1M tokens in/out/cached)' : ' (requests cost $0, marked "no price"; e sets them)'}`],
		['enabled', channel.enabled ? 'yes' : 'no'],
		['priority', String(channel.priority)],
		...healthRows(health),
		['last hour', trafficText(traffic)],
		stale || !test ? ['last test', stale ? `not tested since the channel was changed${testedWhen(testedAt, testedBy, true)} (press t)` : 'not tested (press t)'] : ['last test', `${probeText(channel.name, test)}${testedWhen(testedAt, testedBy)}`, !test.ok ? theme.error : probeWarns(test) ? theme.warn : theme.ok],
		['updated', channel.updatedAt],
	];
}

export function ChannelDetails({rows, width, height, top}: {readonly rows: readonly Detail[]; readonly width: number; readonly height: number; readonly top: number}) {
	return <DetailsWindow rows={rows} hint="Esc back · e edit · t test" width={width} height={height} top={top} />;
}
