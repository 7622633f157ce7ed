/**
 * Channels pane: provider connections in a table; `n` adds one (provider presets), `e` edits,
 * `t` tests (latency or the provider's own error), Space enables/disables, `d` removes after a
 * y/N question. Health comes from a prop: "-" until channel health is measured.
 */
import {useState} from 'react';
import {Box} from 'ink';
import type {Actions} from '../actions.js';
import {detailsScrollBindings, channelsBindings, resolve, type Capture, type ChannelsCommand, type DetailsScrollCommand} from '../commands.js';
import {Confirm, isYes} from '../components/confirm.js';
import {Panel} from '../components/panel.js';
import {Table} from '../components/table.js';
import type {ChannelRecord, KeyRecord} from '../../base/records.js';
import {keysLimitedTo, limitedKeysText, probeWarns} from '../../services/channels.js';
import {wrapLines} from '../text.js';
import {attempt, type Report} from '../status.js';
import {ChannelForm} from './channel-form.js';
import {detailsRoom, scrollDetails} from '../components/details.js';
import {ChannelDetails, channelColumns, channelDetailRows, healthRows, healthText, probeText, probeWarningText} from './channel-views.js';
import {useTimeTexts} from '../hooks/use-time-texts.js';
import type {StoredTest} from '../../store/channel-tests.js';
import type {HealthInfo} from '../health-view.js';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {type ProbeResult} from '../../base/probe-result.js';
import type {TrafficSnapshot} from '../traffic.js';

export type ChannelsPaneProps = {
	readonly channels: readonly ChannelRecord[];
	/** The keys, for what removing a channel does to those limited to it. */
	readonly keys?: readonly KeyRecord[];
	/** Channel id → health, once measured; absent channels show "-". */
	readonly health?: ReadonlyMap<string, HealthInfo>;
	readonly actions: Pick<Actions, 'addChannel' | 'editChannel' | 'setChannelEnabled' | 'removeChannel' | 'testChannel'>;
	/** Each channel's last hour (requests per minute, errors, latency), once it served here. */
	readonly traffic?: TrafficSnapshot;
	/** Each channel's last test kept in the store (store/channel-tests.ts): shown unless this TUI tested it later. */
	readonly storedTests?: ReadonlyMap<string, StoredTest>;
	readonly onStatus: Report;
	readonly onCapture: (captured: Capture) => void;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
};

type Mode = {kind: 'list'} | {kind: 'details'} | {kind: 'form'; channel?: ChannelRecord} | {kind: 'confirm'; channel: ChannelRecord};

/** Each channel's last test, with the version of the channel it tested (an edit since makes it stale). */
type Tests = ReadonlyMap<string, {readonly updatedAt: string; readonly result: ProbeResult; readonly at: string}>;

async function test(actions: ChannelsPaneProps['actions'], onStatus: Report, target: ChannelRecord, inDetails: boolean): Promise<ProbeResult | undefined> {
	onStatus({kind: 'info', text: `Testing channel "${target.name}"…`});
	const tested = await attempt(onStatus, () => actions.testChannel(target.id), ({result}) => probeText(target.name, result));
	if (tested && !tested.result.ok) onStatus({kind: 'error', text: probeText(target.name, tested.result)});
	else if (tested?.result.ok && probeWarns(tested.result)) onStatus({kind: 'warn', text: probeWarningText(target.name, tested.result, inDetails)});
	return tested?.result;
}

async function remove(actions: ChannelsPaneProps['actions'], onStatus: Report, yes: boolean, target: ChannelRecord): Promise<void> {
	if (!yes) return onStatus({kind: 'info', text: `Kept channel "${target.name}".`});
	await attempt(onStatus, () => actions.removeChannel(target.id), () => `Removed channel "${target.name}".`);
}

export function ChannelsPane(props: ChannelsPaneProps) {
	const {channels, actions, onStatus, onCapture, active} = props;
	const selectedState = useKeyState(0);
	// A channel just added or edited is selected once the list holds it ("Press t to test it").
	const savedId = useKeyState<string | null>(null);
	// What the pane shows decides who gets the next key (the list, the form, the question).
	const mode = useKeyState<Mode>({kind: 'list'}, {moves: true});
	/** The first line of a channel's details in sight, where they do not fit. */
	const detailsTop = useKeyState(0);
	const [tests, setTests] = useState<Tests>(new Map());
	const indexNow = () => {
		const saved = savedId.current === null ? -1 : channels.findIndex(item => item.id === savedId.current);
		return Math.min(saved >= 0 ? saved : selectedState.current, channels.length - 1);
	};
	const index = indexNow();
	const setMode = (next: Mode) => {
		mode.set(next);
		onCapture(next.kind === 'form' ? 'form' : next.kind === 'confirm' ? 'question' : null);
	};

	const run = (command: ChannelsCommand | DetailsScrollCommand) => {
		const at = indexNow();
		const channel = channels[at];
		if (command === 'new-channel') return setMode({kind: 'form'});
		if (command === 'page-up' || command === 'page-down') {
			if (mode.current.kind === 'details' && channel) detailsTop.set(scrollDetails(detailRows(props, channel, tests), detailsRoom(props), detailsTop.current, command));
			return;
		}
		// Another channel's details, or the same channel's again, start at their top (copying or editing keeps the place).
		if (command === 'up' || command === 'down' || command === 'details') detailsTop.set(0);
		savedId.set(null);
		if (command === 'up') return selectedState.set(Math.max(0, at - 1));
		if (command === 'down') return selectedState.set(Math.min(channels.length - 1, at + 1));
		selectedState.set(at);
		if (command === 'back') return setMode({kind: 'list'});
		if (!channel) return onStatus({kind: 'info', text: 'No channels yet: press n to add one.'});
		if (command === 'details') return setMode({kind: 'details'});
		if (command === 'edit-channel') return setMode({kind: 'form', channel});
		if (command === 'remove-channel') return setMode({kind: 'confirm', channel});
		if (command === 'test-channel') {
			void test(actions, onStatus, channel, mode.current.kind === 'details').then(result => {
				if (result) setTests(current => new Map(current).set(channel.id, {updatedAt: channel.updatedAt, result, at: new Date().toISOString()}));
			});
			return;
		}
		const enabled = !channel.enabled;
		void attempt(onStatus, () => actions.setChannelEnabled(channel.id, enabled), () => `${enabled ? 'Enabled' : 'Disabled'} channel "${channel.name}".`);
	};

	useKeypress(
		key => {
			if (mode.current.kind === 'form') return false; // the form's own layers have the keyboard
			const command = resolve(channelsBindings, key) ?? (mode.current.kind === 'details' ? resolve(detailsScrollBindings, key) : undefined);
			if (command) run(command);
			return command !== undefined;
		},
		{isActive: active},
	);
	// A question takes every key: y removes, anything else keeps the channel.
	useKeypress(
		key => {
			const current = mode.current;
			if (current.kind !== 'confirm') return true;
			setMode({kind: 'list'});
			void remove(actions, onStatus, isYes(key), current.channel);
			return true;
		},
		{layer: 'confirm', isActive: active && mode.current.kind === 'confirm'},
	);

	const enabled = channels.filter(item => item.enabled).length;
	return (
		<Panel title="Channels" subtitle={`${channels.length} provider connection${channels.length === 1 ? '' : 's'}, ${enabled} enabled · real keys never leave the gateway`} width={props.width} height={props.height}>
			<ChannelsBody {...props} mode={mode.current} index={index} detailsTop={detailsTop.current} tests={tests} setMode={setMode} onSaved={savedId.set} />
		</Panel>
	);
}

/** What a channel's details show, from the pane's data. */
const detailRows = ({health, traffic, storedTests}: ChannelsPaneProps, channel: ChannelRecord, tests: Tests) => {
	// The newer of this TUI's own test and the one kept in the store (an earlier run's, another process's since).
	const own = tests.get(channel.id);
	const stored = storedTests?.get(channel.id);
	const kept = stored && {updatedAt: stored.channelUpdatedAt, result: stored.result, at: stored.at, by: stored.by};
	const tested = own && (!kept || own.at >= kept.at) ? {...own, by: 'test' as const} : kept;
	return channelDetailRows({channel, health: health?.get(channel.id), test: tested?.result, testedAt: tested?.at, testedBy: tested?.by, stale: tested !== undefined && tested.updatedAt !== channel.updatedAt, traffic: traffic?.channels.get(channel.id)});
};

type BodyProps = ChannelsPaneProps & {readonly mode: Mode; readonly index: number; readonly detailsTop: number; readonly tests: Tests; readonly setMode: (mode: Mode) => void; readonly onSaved: (id: string) => void};

function ChannelsBody(props: BodyProps) {
	const {channels, health, traffic, actions, onStatus, active, width, height, mode, index, detailsTop, tests, setMode, onSaved} = props;
	const channel = channels[index];
	// The details' "since 14:02 (3m ago)" and "retry at 14:05 (in 20s)"; the list's "lacks model" until its time.
	const shownHealth = active && mode.kind === 'details' && channel ? health?.get(channel.id) : undefined;
	const listed = active && mode.kind === 'list' && health;
	useTimeTexts(shownHealth ? [(now: number) => healthRows(shownHealth, now).map(([, text]) => text).join('\n')] : listed ? channels.map(row => (now: number) => healthText(row, health, now)) : []);
	if (mode.kind === 'form') {
		const onDone = (saved: ChannelRecord, verb: string) => {
			onSaved(saved.id);
			setMode({kind: 'list'});
			onStatus({kind: 'ok', text: `Channel "${saved.name}" ${verb}. Press t to test it.`});
		};
		return <ChannelForm active={active} channel={mode.channel} addChannel={actions.addChannel} editChannel={actions.editChannel} onCancel={() => setMode({kind: 'list'})} onDone={onDone} height={height - 3} width={width - 4} />;
	}
	if (mode.kind === 'details' && channel) return <ChannelDetails rows={detailRows(props, channel, tests)} {...detailsRoom(props)} top={detailsTop} />;
	// The question's box: its border and padding, the question, the consequence's lines and the answer line.
	const consequence = mode.kind === 'confirm' ? wrapLines(removalConsequence(mode.channel, props.keys ?? [], channels), width - 8, 4) : [];
	return (
		<Box flexDirection="column">
			<Table columns={channelColumns(health, traffic)} rows={channels} rowKey={row => row.id} selected={active ? index : -1} width={width - 4} height={height - (mode.kind === 'confirm' ? 7 + consequence.length : 3)} empty="No channels yet. Press n to add one (OpenAI, Anthropic, Gemini, Ollama …)." />
			{mode.kind === 'confirm' ? <Confirm question={`Remove channel "${mode.channel.name}"?`} consequence={consequence.join('\n')} /> : null}
		</Box>
	);
}

/** What removing `channel` does: its models go elsewhere, and the keys limited to it are named (one left with none refuses every request). */
function removalConsequence(channel: ChannelRecord, keys: readonly KeyRecord[], channels: readonly ChannelRecord[]): string {
	const limited = limitedKeysText(keysLimitedTo(channel.id, keys, channels), 'Edit them on 1 Keys (e).');
	return `Requests for its models go to other channels, or fail with 404.${limited ? ` ${limited}` : ''}`;
}
