/**
 * The Ink root: the tab bar, the focused pane, the footer with its keys and the status bar. All
 * four panes stay mounted (hidden ones are `display: none`), so switching keeps each pane's
 * selection. Global keys pause while a pane's form or question owns the keyboard.
 */
import {useState} from 'react';
import {Box, Text, useApp} from 'ink';
import type {ClipboardPort} from './clipboard.js';
import {globalBindings, panes, resolve, type GlobalCommand, type PaneId} from './commands.js';
import {Footer, StatusBar, statusBarHeight, TabBar, type ListenState} from './components/chrome.js';
import {HelpOverlay} from './components/help-overlay.js';
import {useExternalStore} from './hooks/use-external-store.js';
import {useStatus} from './hooks/use-status.js';
import {useTerminalSize} from './hooks/use-terminal-size.js';
import type {TuiModel} from './model.js';
import {ExternalStore} from './external-store.js';
import {healthOf, type HealthInfo} from './health-view.js';
import {ChannelsPane} from './panes/channels-pane.js';
import {EndpointsPane} from './panes/endpoints-pane.js';
import {KeysPane} from './panes/keys-pane.js';
import {UsagePane} from './panes/usage-pane.js';
import {theme, type StatusMessage} from './theme.js';
import {useKeypress} from './hooks/use-keypress.js';
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

export const minColumns = 60;
export const minRows = 16;

export function App({model, clipboard, listen, baseUrl, health: healthProp, initialPane = 'keys', initialStatus}: AppProps) {
	const {exit} = useApp();
	const {columns, rows} = useTerminalSize();
	const data = useExternalStore(model.data.snapshot);
	const log = useExternalStore(model.log);
	const traffic = useExternalStore(model.traffic ?? noTraffic);
	const usage = useExternalStore(model.usage);
	const limitUse = useExternalStore(model.limits);
	const measured = useExternalStore(model.health?.views ?? noHealth);
	const health = healthProp ?? (model.health ? healthOf(data.channels, measured) : undefined);
	const {message, report: setMessage, clearResult} = useStatus(model.events, initialStatus ?? null);
	const [pane, setPane] = useState<PaneId>(initialPane);
	const [help, setHelp] = useState(false);
	const [captured, setCaptured] = useState(false);

	const run = (command: GlobalCommand) => {
		if (command === 'quit') return exit();
		if (command === 'help') return setHelp(!help);
		const index = panes.findIndex(item => item.id === pane);
		const next = command === 'next-pane' ? panes[(index + 1) % panes.length]! : command === 'prev-pane' ? panes[(index + panes.length - 1) % panes.length]! : undefined;
		setHelp(false);
		const target = next ? next.id : (command.slice('pane:'.length) as PaneId);
		if (target !== pane) clearResult();
		setPane(target);
	};
	useKeypress((input, key) => {
		if (key.ctrl && input === 'c') return exit();
		if (captured) return;
		if (help && key.escape) return setHelp(false);
		const command = resolve(globalBindings, input, key);
		if (command) run(command);
	});

	// Ink clears the whole screen on every frame that fills the terminal; one line less avoids that flicker.
	const height = rows - 1;
	if (columns < minColumns || height < minRows) {
		return <Text color={theme.warn}>{`gateway-tui needs at least ${minColumns}×${minRows + 1} (this terminal: ${columns}×${rows}). Enlarge it, or press q to quit.`}</Text>;
	}
	const status = data.error ? ({kind: 'error', text: data.error} as const) : message;
	const body = height - 2 - statusBarHeight(listen, status, columns);
	const shared = {width: columns, height: body, onStatus: setMessage, onCapture: setCaptured};
	const requests = new Map(usage.all.byKey.map(row => [row.id ?? row.group, row.requests]));
	const show = (id: PaneId) => (pane === id && !help ? 'flex' : 'none');
	const healthy = health ? data.channels.filter(channel => channel.enabled && health.get(channel.id)?.state === 'healthy').length : null;
	return (
		<Box flexDirection="column" width={columns} height={height}>
			<TabBar current={pane} />
			<Box height={body} flexDirection="column">
				{help ? <HelpOverlay pane={pane} width={columns} height={body} /> : null}
				<Box display={show('keys')}>
					<KeysPane {...shared} keys={data.keys} channels={data.channels} lastUsed={data.lastUsed} requests={requests} limitUse={limitUse} actions={model.actions} clipboard={clipboard} active={pane === 'keys' && !help} />
				</Box>
				<Box display={show('channels')}>
					<ChannelsPane {...shared} channels={data.channels} health={health} traffic={traffic} actions={model.actions} active={pane === 'channels' && !help} />
				</Box>
				<Box display={show('endpoints')}>
					<EndpointsPane {...shared} keys={data.keys} channels={data.channels} baseUrl={baseUrl} clipboard={clipboard} actions={model.actions} active={pane === 'endpoints' && !help} />
				</Box>
				<Box display={show('usage')}>
					<UsagePane {...shared} usage={usage} log={log.entries} traffic={traffic} source={model.usageSource} active={pane === 'usage' && !help} />
				</Box>
			</Box>
			<Footer pane={pane} captured={captured} />
			<StatusBar
				listen={listen}
				requests={log.total}
				failed={log.failed}
				channels={{total: data.channels.length, enabled: data.channels.filter(channel => channel.enabled).length, healthy}}
				message={status}
				columns={columns}
			/>
		</Box>
	);
}
