/**
 * The frame around the panes: the tab bar on top, the focused pane's keys and the status bar at
 * the bottom. The tab bar and the footer are one line at any width; the status bar two, or more
 * when a message or a listen error needs a second line (see statusBarHeight).
 */
import {Box, Text} from 'ink';
import {fitItems, footerItems, itemWidth, panes, type Capture, type PaneId} from '../commands.js';
import {statusColors, statusSymbols, symbols, theme, type StatusMessage} from '../theme.js';
import {wrapLines} from '../text.js';

export function TabBar({current}: {readonly current: PaneId}) {
	return (
		<Box>
			<Text bold color={theme.accent}>
				{' gateway-tui '}
			</Text>
			{panes.map((pane, index) => (
				<Text key={pane.id} inverse={pane.id === current} bold={pane.id === current} color={pane.id === current ? theme.accent : undefined}>
					{` ${index + 1} ${pane.title} `}
				</Text>
			))}
		</Box>
	);
}

function Items({items}: {readonly items: ReadonlyArray<{readonly keys: string; readonly label: string}>}) {
	return (
		<Text wrap="truncate">
			{items.map(item => (
				<Text key={`${item.keys}${item.label}`}>
					<Text bold color={theme.accent}>{` ${item.keys}`}</Text>
					<Text color={theme.muted}>{` ${item.label} `}</Text>
				</Text>
			))}
		</Text>
	);
}

/** While a form, a question or the filter line has the keyboard, its keys: the pane's would type into a field. */
const capturedItems: Readonly<Record<Exclude<Capture, null | 'request'>, ReturnType<typeof footerItems>>> = {
	form: {
		own: [
			{keys: 'Tab/↵', label: 'next'},
			{keys: 'Shift+Tab', label: 'back'},
			{keys: 'Ctrl+A/E/U/K/W', label: 'edit'},
		],
		global: [{keys: 'Esc', label: 'cancel'}],
	},
	question: {own: [{keys: 'y', label: 'yes'}], global: [{keys: 'any other key', label: 'no'}]},
	filter: {
		own: [
			{keys: '↵', label: 'keep the filter'},
			{keys: 'Ctrl+A/E/U/K/W', label: 'edit'},
		],
		global: [{keys: 'Esc', label: 'clear it'}],
	},
};

/**
 * The pane's own keys on the left, the global ones always visible on the right. Where the line is
 * too narrow, the pane's last keys give way whole (`?` lists them all), never cut mid-word.
 */
export function Footer({pane, captured = null, columns = Infinity}: {readonly pane: PaneId; readonly captured?: Capture; readonly columns?: number}) {
	const {own, global} = captured === 'request' ? footerItems('request') : captured ? capturedItems[captured] : footerItems(pane);
	const room = columns - global.reduce((sum, item) => sum + itemWidth(item), 0);
	return (
		<Box justifyContent="space-between">
			<Box flexShrink={1} overflow="hidden">
				<Items items={fitItems(own, room)} />
			</Box>
			<Box flexShrink={0}>
				<Items items={global} />
			</Box>
		</Box>
	);
}

/** Where the proxy listens, or why it does not. */
/**
 * Where the gateway listens, or why it does not; `starting` while its core has not listened yet (the
 * first frame does not wait for it), `url` then being the address it was asked for, if it has one.
 */
export type ListenState = {readonly url: string | null; readonly error: string | null; readonly starting?: boolean};

/** Channel counts for the status bar; `healthy` once channel health is measured. */
export type ChannelCounts = {readonly total: number; readonly enabled: number; readonly healthy: number | null};

type StatusProps = {
	readonly listen: ListenState;
	/** Today's, as the Usage pane counts them (usage-view.ts periodTotals). */
	readonly requests: number;
	readonly failed: number;
	/** Requests the gateway here has received and not finished (a stream until it ends); shown only when some are. */
	readonly inFlight?: number;
	readonly channels: ChannelCounts;
	readonly message: StatusMessage | null;
};

const notListening = (error: string) => `${error} Keys and channels still work here.`;

/** Where a message needs more than the bar's two lines, the second ends saying where it is whole. */
const cutHint = '… (? shows all)';

/** A listen error's lines: two at most, cut with `…`. */
const barLines = (text: string, columns: number) => wrapLines(text, columns - 4, 2);

/** A status message's lines: two at most, the second ending with `cutHint` where it is cut (the help shows it whole). */
export function statusMessageLines(text: string, columns: number): string[] {
	const room = columns - 4;
	const lines = wrapLines(text, room);
	if (lines.length <= 2) return lines;
	const [second = ''] = wrapLines(lines.slice(1).join(' '), room - cutHint.length);
	return [lines[0]!, `${second}${cutHint}`];
}

/** Lines the status bar needs at this width: a listen error and the message may take two each. */
export function statusBarHeight(listen: ListenState, message: StatusMessage | null, columns: number): number {
	return (listen.error ? barLines(notListening(listen.error), columns).length : 1) + (message ? statusMessageLines(message.text, columns).length : 1);
}

/**
 * A listen error or a message after its symbol, in at most two lines (the second indented under
 * the first), so the bar never takes more lines than statusBarHeight counted.
 */
function BarText({symbol, lines, color}: {readonly symbol: string; readonly lines: readonly string[]; readonly color: string}) {
	return (
		<>
			{lines.map((line, index) => (
				<Text key={index} color={color} wrap="truncate">{`${index === 0 ? ` ${symbol} ` : '   '}${line}`}</Text>
			))}
		</>
	);
}

/**
 * `  ·  18 requests today (3 failed)  ·  2 in flight  ·  2 of 2 channels healthy` after the address
 * (in flight only while some are); where that does not fit, shorter words for the same numbers, so no
 * number is cut at 80 columns.
 */
export function countsText({requests, failed, inFlight = 0, channels}: Pick<StatusProps, 'requests' | 'failed' | 'inFlight' | 'channels'>, room: number): string {
	const failures = failed ? ` (${failed} failed)` : '';
	const plural = requests === 1 ? '' : 's';
	const [done, of] = channels.healthy === null ? [channels.enabled, channels.total] : [channels.healthy, channels.enabled];
	const state = channels.healthy === null ? 'enabled' : 'healthy';
	const [wide, narrow] = inFlight > 0 ? [`  ·  ${inFlight} in flight`, ` · ${inFlight} in flight`] : ['', ''];
	const variants = [
		`  ·  ${requests} request${plural} today${failures}${wide}  ·  ${done} of ${of} channels ${state}`,
		` · ${requests} request${plural} today${failures}${narrow} · ${done}/${of} channels ${state}`,
		` · ${requests} request${plural} today${failures}${narrow} · ${done}/${of} ${state}`,
		` · ${requests} today${failures}${narrow} · ${done}/${of} ${state}`,
		` · ${requests} today${failures}${narrow}`,
		` · ${requests} today${failures}`,
	];
	return variants.find(text => text.length <= room) ?? variants.at(-1)!;
}

export function StatusBar({listen, requests, failed, inFlight, channels, message, columns = Infinity}: StatusProps & {readonly columns?: number}) {
	const address = ` ${symbols.dot} ${listen.url ?? ''}`;
	return (
		<Box flexDirection="column">
			{listen.error ? (
				<BarText symbol={symbols.error} lines={barLines(notListening(listen.error), columns)} color={theme.error} />
			) : listen.starting ? (
				<Text wrap="truncate" color={theme.muted}>{` ${symbols.dot} starting the gateway${listen.url ? ` on ${listen.url}` : ''}…`}</Text>
			) : (
				<Text wrap="truncate">
					<Text color={theme.ok}>{address}</Text>
					<Text color={theme.muted}>{countsText({requests, failed, inFlight, channels}, columns - 1 - address.length)}</Text>
				</Text>
			)}
			<StatusLine message={message} columns={columns} />
		</Box>
	);
}

/** At most two lines (statusBarHeight counts on it): a longer message is cut, and the help (`?`) shows it whole. */
function StatusLine({message, columns}: {readonly message: StatusMessage | null; readonly columns: number}) {
	if (!message) return <Text color={theme.muted}> press ? for every key of this pane</Text>;
	return <BarText symbol={statusSymbols[message.kind]} lines={statusMessageLines(message.text, columns)} color={statusColors[message.kind]} />;
}
