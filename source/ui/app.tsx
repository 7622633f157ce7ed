/**
 * The Ink root: the tab bar, the focused pane, the footer with its keys and the status bar. All
 * four panes stay mounted (hidden ones are `display: none`), so switching keeps each pane's
 * selection; the first frame waits for the shown pane only, the others mount right after it. Keys
 * go through the keyboard's layers (keyboard.ts): Ctrl+C first, then the help overlay, a pane's
 * question, form and list, and the global keys (panes, help, quit) last.
 */
import {useEffect, useState} from 'react';
import {Box, Text, useApp} from 'ink';
import type {ClipboardPort} from './clipboard.js';
import {globalBindings, panes, resolve, type Capture, type GlobalCommand, type PaneId} from './commands.js';
import {Footer, StatusBar, statusBarHeight, TabBar, type ListenState} from './components/chrome.js';
import {HelpOverlay} from './components/help-overlay.js';
import {useExternalStore} from './hooks/use-external-store.js';
import {useStatus} from './hooks/use-status.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import type {TuiModel} from './model.js';
import {ExternalStore} from './external-store.js';
import {healthOf, publishedHealthOf, type HealthInfo} from './health-view.js';
import type {PublishedHealth} from '../store/published-health.js';
import {ChannelsPane} from './panes/channels-pane.js';
import {EndpointsPane} from './panes/endpoints-pane.js';
import {KeysPane} from './panes/keys-pane.js';
import {UsagePane} from './panes/usage-pane.js';
import {theme, type StatusMessage} from './theme.js';
import {periodTotals} from './usage-view.js';
import {useKeypress, useKeyState} from './hooks/use-keypress.js';
import {type ChannelHealthView} from '../base/events.js';
import {emptyTraffic, type TrafficSnapshot} from './traffic.js';

export type AppProps = {
	readonly model: TuiModel;
	readonly clipboard: ClipboardPort;
	readonly listen: ListenState;
	/** The gateway's root URL for snippets (the configured one when it could not listen). */
	readonly baseUrl: string;
	/** Channel health by channel id; by default what this process measures (none: the column shows "-"). */
	readonly health?: ReadonlyMap<string, HealthInfo>;
	readonly initialPane?: PaneId;
	readonly initialStatus?: StatusMessage;
};

const noHealth = new ExternalStore<ReadonlyMap<string, ChannelHealthView>>(new Map());
const noTraffic = new ExternalStore<TrafficSnapshot>(emptyTraffic());
const noPublished = new ExternalStore<readonly PublishedHealth[]>([]);

export const minColumns = 60;
export const minRows = 16;

export function App({model, clipboard, listen, baseUrl, health: healthProp, initialPane = 'keys', initialStatus}: AppProps) {
	const {exit} = useApp();
	const terminal = useTerminalSize();
	// Below the minimum the panes stay mounted (hidden, laid out at the minimum): a form half filled in survives a brief shrink.
	const tooSmall = terminal.columns < minColumns || terminal.rows - 1 < minRows;
	const columns = Math.max(terminal.columns, minColumns);
	const rows = Math.max(terminal.rows, minRows + 1);
	const data = useExternalStore(model.data.snapshot);
	const log = useExternalStore(model.log);
	const traffic = useExternalStore(model.traffic ?? noTraffic);
	const inFlight = useExternalStore(model.inFlight);
	const usage = useExternalStore(model.usage);
	const limitUse = useExternalStore(model.limits);
	// Measured here while this process serves, else what the store's gateways publish (read only then);
	// nothing while its core is starting (not known yet which).
	const serving = useExternalStore(model.serving);
	const measuredHere = serving !== false && model.health !== null;
	const measured = useExternalStore(model.health?.views ?? noHealth);
	const published = useExternalStore((!measuredHere && model.publishedHealth) || noPublished);
	const health = healthProp ?? (serving === null ? undefined : measuredHere ? healthOf(data.channels, measured) : publishedHealthOf(data.channels, published));
	const {message, recent, report: setMessage, leftPane} = useStatus(model.events, initialStatus ?? null);
	// Which pane is shown and whether the help is: they decide who gets the next key.
	const shown = useKeyState<PaneId>(initialPane, {moves: true});
	const helpShown = useKeyState(false, {moves: true});
	// Per pane: a request's details left open on the Usage pane keep their keys there, not on the others.
	const [captures, setCaptures] = useState<Readonly<Partial<Record<PaneId, Capture>>>>({});
	// The key last selected, created or rotated on the Keys pane: the Endpoints pane's snippets follow it.
	const [keyInFocus, setKeyInFocus] = useState<string | null>(null);
	const pane = shown.current;
	const help = helpShown.current;
	// The shown pane first: the other three mount (hidden) just after the first frame, which then costs
	// one pane's components, not four — on a cold start that frame is mostly code run for the first time.
	const [allMounted, setAllMounted] = useState(false);
	useEffect(() => {
		const timer = setTimeout(() => setAllMounted(true), 0);
		return () => clearTimeout(timer);
	}, []);
	const mounted = (id: PaneId) => allMounted || id === pane || id === initialPane;

	const run = (command: GlobalCommand) => {
		if (command === 'quit') return exit();
		if (command === 'help') return helpShown.set(!helpShown.current);
		const current = shown.current;
		const index = panes.findIndex(item => item.id === current);
		const next = command === 'next-pane' ? panes[(index + 1) % panes.length]! : command === 'prev-pane' ? panes[(index + panes.length - 1) % panes.length]! : undefined;
		helpShown.set(false);
		const target = next ? next.id : (command.slice('pane:'.length) as PaneId);
		if (target !== current) leftPane();
		shown.set(target);
	};
	// Ctrl+C quits from anywhere: a form or a question never keeps it (the terminal is in raw mode, so no SIGINT).
	useKeypress(
		key => {
			const interrupt = key.ctrl && key.name === 'char' && key.text === 'c';
			if (interrupt) exit();
			return interrupt;
		},
		{layer: 'critical'},
	);
	useKeypress(
		key => {
			if (key.name !== 'escape') return false;
			helpShown.set(false);
			return true;
		},
		{layer: 'help', isActive: help},
	);
	useKeypress(key => {
		const command = resolve(globalBindings, key);
		if (command) run(command);
		return command !== undefined;
	}, {layer: 'global'});

	// Ink clears the whole screen on every frame that fills the terminal; one line less avoids that flicker.
	const height = rows - 1;
	const status = data.error ? ({kind: 'error', text: data.error} as const) : message;
	const body = height - 2 - statusBarHeight(listen, status, columns);
	const shared = (id: PaneId) => ({width: columns, height: body, onStatus: setMessage, onCapture: (captured: Capture) => setCaptures(current => ({...current, [id]: captured}))});
	const today = periodTotals(usage, 'today');
	const requests = new Map(usage.all.byKey.map(row => [row.id ?? row.group, row.requests]));
	const show = (id: PaneId) => (pane === id && !help ? 'flex' : 'none');
	const healthy = health ? data.channels.filter(channel => channel.enabled && health.get(channel.id)?.state === 'healthy').length : null;
	return (
		<Box flexDirection="column">
			{tooSmall ? <Text color={theme.warn}>{`gateway-tui needs at least ${minColumns}×${minRows + 1} (this terminal: ${terminal.columns}×${terminal.rows}). Enlarge it; what you were doing is kept (Ctrl+C quits).`}</Text> : null}
			<Box flexDirection="column" width={columns} height={height} display={tooSmall ? 'none' : 'flex'}>
				<TabBar current={pane} />
				<Box height={body} flexDirection="column">
					{help ? <HelpOverlay pane={pane} width={columns} height={body} messages={recent} /> : null}
					<Box display={show('keys')}>
						{mounted('keys') ? (
							<KeysPane {...shared('keys')} onKeyInFocus={setKeyInFocus} keys={data.keys} channels={data.channels} lastUsed={data.lastUsed} requests={requests} limitUse={limitUse} actions={model.actions} clipboard={clipboard} active={pane === 'keys' && !help} />
						) : null}
					</Box>
					<Box display={show('channels')}>
						{mounted('channels') ? (
							<ChannelsPane {...shared('channels')} channels={data.channels} keys={data.keys} health={health} traffic={traffic} storedTests={data.tests} actions={model.actions} active={pane === 'channels' && !help} />
						) : null}
					</Box>
					<Box display={show('endpoints')}>
						{mounted('endpoints') ? (
							<EndpointsPane {...shared('endpoints')} keyInFocus={keyInFocus} keys={data.keys} channels={data.channels} limitUse={limitUse} baseUrl={baseUrl} clipboard={clipboard} actions={model.actions} active={pane === 'endpoints' && !help} />
						) : null}
					</Box>
					<Box display={show('usage')}>
						{mounted('usage') ? (
							<UsagePane {...shared('usage')} usage={usage} log={log.entries} traffic={traffic} source={model.usageSource} active={pane === 'usage' && !help} />
						) : null}
					</Box>
				</Box>
				<Footer pane={pane} captured={help ? null : (captures[pane] ?? null)} columns={columns} />
				<StatusBar
					listen={listen}
					requests={today.requests}
					failed={today.failed}
					inFlight={inFlight}
					channels={{total: data.channels.length, enabled: data.channels.filter(channel => channel.enabled).length, healthy}}
					message={status}
					columns={columns}
				/>
			</Box>
		</Box>
	);
}
