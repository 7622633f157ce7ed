/**
 * The frame around the panes: the tab bar on top, the focused pane's keys and the status bar at
 * the bottom. The tab bar and the footer are one line at any width; the status bar two, or more
 * when a message or a listen error needs a second line (see statusBarHeight).
 */
import {Box, Text} from 'ink';
import {footerItems, panes, type Capture, type PaneId} from '../commands.js';
import {statusColors, statusSymbols, symbols, theme, type StatusMessage} from '../theme.js';

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
const capturedItems: Readonly<Record<Exclude<Capture, null>, ReturnType<typeof footerItems>>> = {
	form: {
		own: [
			{keys: 'Tab', label: 'next'},
			{keys: '↵', label: 'next / submit'},
			{keys: 'Ctrl+A/E/U/W', label: 'edit'},
		],
		global: [{keys: 'Esc', label: 'cancel'}],
	},
	question: {own: [{keys: 'y', label: 'yes'}], global: [{keys: 'any other key', label: 'no'}]},
	filter: {
		own: [
			{keys: '↵', label: 'keep the filter'},
			{keys: 'Ctrl+A/E/U/W', label: 'edit'},
		],
		global: [{keys: 'Esc', label: 'clear it'}],
	},
};

/** The pane's own keys on the left (cut when narrow), the global ones always visible on the right. */
export function Footer({pane, captured = null}: {readonly pane: PaneId; readonly captured?: Capture}) {
	const {own, global} = captured ? capturedItems[captured] : footerItems(pane);
	return (
		<Box justifyContent="space-between">
			<Box flexShrink={1} overflow="hidden">
				<Items items={own} />
			</Box>
			<Box flexShrink={0}>
				<Items items={global} />
			</Box>
		</Box>
	);
}

/** Where the proxy listens, or why it does not. */
export type ListenState = {readonly url: string | null; readonly error: string | null};

/** Channel counts for the status bar; `healthy` once channel health is measured. */
export type ChannelCounts = {readonly total: number; readonly enabled: number; readonly healthy: number | null};

type StatusProps = {
	readonly listen: ListenState;
	/** Today's, as the Usage pane counts them (usage-view.ts periodTotals). */
	readonly requests: number;
	readonly failed: number;
	readonly channels: ChannelCounts;
	readonly message: StatusMessage | null;
};

const notListening = (error: string) => `${symbols.error} ${error} Keys and channels can still be managed here.`;
const lines = (text: string, columns: number) => (text.length + 3 > columns ? 2 : 1);

/** Lines the status bar needs at this width: a listen error and the message may take two each. */
export function statusBarHeight(listen: ListenState, message: StatusMessage | null, columns: number): number {
	return (listen.error ? lines(notListening(listen.error), columns) : 1) + (message ? lines(message.text, columns) : 1);
}

export function StatusBar({listen, requests, failed, channels, message, columns = Infinity}: StatusProps & {readonly columns?: number}) {
	const channelText =
		channels.healthy === null ? `${channels.enabled} of ${channels.total} channels enabled` : `${channels.healthy} of ${channels.enabled} channels healthy`;
	return (
		<Box flexDirection="column">
			{listen.error ? (
				<Text color={theme.error}>{` ${notListening(listen.error)}`}</Text>
			) : (
				<Text wrap="truncate">
					<Text color={theme.ok}>{` ${symbols.dot} ${listen.url ?? ''}`}</Text>
					<Text color={theme.muted}>{`  ·  ${requests} request${requests === 1 ? '' : 's'} today${failed ? ` (${failed} failed)` : ''}  ·  ${channelText}`}</Text>
				</Text>
			)}
			<StatusLine message={message} columns={columns} />
		</Box>
	);
}

/** At most two lines (statusBarHeight counts on it): a longer message is cut, its details are in the pane. */
function StatusLine({message, columns}: {readonly message: StatusMessage | null; readonly columns: number}) {
	if (!message) return <Text color={theme.muted}> press ? for every key of this pane</Text>;
	const room = 2 * (columns - 1) - 4;
	const text = message.text.length > room ? `${message.text.slice(0, room - 1)}…` : message.text;
	return <Text color={statusColors[message.kind]}>{` ${statusSymbols[message.kind]} ${text}`}</Text>;
}
