/**
 * Endpoints pane: the three wire formats and their base URLs, a key to fill in (←/→), and one
 * list of the snippets for each tool with that key's secret, then Claude Code,
 * Codex and Gemini CLI with their takeover state. `c` copies the selected snippet; on a tool, `a`
 * opens the takeover form (key, model, a preview of what is written; the key chosen with ←/→ is
 * for the snippets only) and `u` puts its own settings back.
 */
import {useEffect} from 'react';
import {Box} from 'ink';
import type {ClipboardPort} from '../clipboard.js';
import {endpointsBindings, resolve, type Capture, type EndpointsCommand} from '../commands.js';
import {Panel} from '../components/panel.js';
import {Select} from '../components/select.js';
import {takeoverTitles, takeoverTools, type PreviewLine, type TakeoverTool, type ToolStatus} from '../../services/takeover/index.js';
import type {TakeoverChoice} from '../actions.js';
import {TakeoverForm, type TakeoverRequest} from './takeover-form.js';
import type {ChannelRecord, KeyRecord} from '../../base/records.js';
import {exampleModel, snippets, type Snippet} from '../snippets.js';
import {copyWithReport, type Report} from '../status.js';
import {toolStateWord} from '../takeover-text.js';
import {theme} from '../theme.js';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {useTakeover, type Takeover, type TakeoverActions} from '../hooks/use-takeover.js';
import {EndpointTable, KeyLine, SnippetView, ToolView} from './endpoint-views.js';
import {keyState} from '../../store/keys.js';
import {useTimeTexts} from '../hooks/use-time-texts.js';
import {keyStateText} from '../text.js';
import {reachedText} from './key-views.js';
import type {LimitUse} from '../../base/periods.js';

export type EndpointsPaneProps = {
	readonly keys: readonly KeyRecord[];
	readonly channels: readonly ChannelRecord[];
	/** The gateway's root URL, e.g. http://127.0.0.1:11580: the snippets', and the one a takeover writes. */
	readonly baseUrl: string;
	readonly clipboard: ClipboardPort;
	readonly actions: TakeoverActions;
	/** What each limited key used of its limits: a key whose next request is refused says so. */
	readonly limitUse?: ReadonlyMap<string, LimitUse>;
	readonly onStatus: Report;
	/** Told when a question takes the keyboard (global keys pause meanwhile). */
	readonly onCapture: (captured: Capture) => void;
	/** The key last selected, created or rotated on the Keys pane: shown here from then on, until ←/→ choose another. */
	readonly keyInFocus?: string | null;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
};

const placeholder = '<your-virtual-key>';
// "Claude Code: not taken over", and at 110 columns a whole `export OPENAI_API_KEY=…` line beside it.
const listWidth = 29;

type Entry = {readonly id: string; readonly snippet?: Snippet; readonly tool?: TakeoverTool};

function entries(list: readonly Snippet[]): Entry[] {
	return [...list.map(snippet => ({id: snippet.id, snippet})), ...takeoverTools.map(tool => ({id: `takeover-${tool}`, tool}))];
}

function label(entry: Entry, statuses: readonly ToolStatus[] | null): string {
	if (entry.snippet) return entry.snippet.title;
	const status = statuses?.find(item => item.tool === entry.tool);
	return `${takeoverTitles[entry.tool!]}: ${status ? toolStateWord(status) : '…'}`;
}

type Context = {
	readonly props: EndpointsPaneProps;
	readonly keyIndex: number;
	readonly selected: () => Entry;
	readonly takeover: Takeover;
	readonly setChosenId: (id: string) => void;
	readonly openForm: (status: ToolStatus) => void;
};

function run(command: EndpointsCommand, {props, keyIndex, selected: selectedNow, takeover, setChosenId, openForm}: Context): void {
	const {keys, onStatus} = props;
	const selected = selectedNow();
	if (command === 'up' || command === 'down') return; // the list moves itself
	if (command === 'prev-key' || command === 'next-key') {
		if (keys.length > 0) setChosenId(keys[(keyIndex + (command === 'next-key' ? 1 : keys.length - 1)) % keys.length]!.id);
		return;
	}
	if (command === 'copy-snippet') return copy(selected, keys[keyIndex], props.limitUse, props.clipboard, onStatus);
	if (!selected.tool) return onStatus({kind: 'info', text: 'Choose Claude Code, Codex or Gemini CLI at the end of the list (↓) first: a and u act on the selected tool.'});
	if (takeover.busy) return onStatus({kind: 'info', text: `Still working on ${takeoverTitles[takeover.busy]}…`});
	if (command === 'undo-takeover') return void takeover.undo(selected.tool);
	const status = takeover.statuses?.find(item => item.tool === selected.tool);
	if (!status) return onStatus({kind: 'info', text: 'Still reading the tools\' settings: press a again in a moment.'});
	if (status.problem) return onStatus({kind: 'error', text: `${status.problem}`});
	openForm(status);
}

export function EndpointsPane(props: EndpointsPaneProps) {
	const {keys, channels, baseUrl, onStatus, onCapture, active, width, height} = props;
	const chosenId = useKeyState<string | null>(props.keyInFocus ?? null);
	// A key selected, created or rotated on the Keys pane since: its snippets are the ones wanted next ("3 Endpoints: ready-to-paste snippets").
	useEffect(() => {
		if (props.keyInFocus) chosenId.set(props.keyInFocus);
	}, [props.keyInFocus]);
	const selectedId = useKeyState<string | null>(null);
	// The takeover form, while open, has the keyboard: opening it holds the keys typed after `a` for it.
	const form = useKeyState<ToolStatus | null>(null, {moves: true});
	const takeover = useTakeover(props.actions, baseUrl, active, onStatus);
	// Until one is chosen: the first key the gateway serves now (active, at none of its limits), else the first active one.
	const usable = (key: KeyRecord) => keyState(key) === 'active' && !reachedText(key, props.limitUse?.get(key.id));
	const firstKey = () => Math.max(0, [keys.findIndex(usable), keys.findIndex(key => keyState(key) === 'active')].find(index => index !== -1) ?? 0);
	const keyIndexOf = (id: string | null) => (id === null ? firstKey() : Math.max(0, keys.findIndex(key => key.id === id)));
	const listOf = (index: number) => {
		const key = keys[index];
		return entries(snippets(baseUrl, key?.secret ?? placeholder, format => exampleModel(format, channels, key?.models ?? [])));
	};
	const keyIndex = keyIndexOf(chosenId.current);
	const list = listOf(keyIndex);
	const shownKey = keys[keyIndex];
	// The key line's "expires in 3d" (and "expired" once it has).
	useTimeTexts(active && shownKey ? [(now: number) => keyStateText(shownKey, now)] : []);
	// From the newest state, not this render's: → then c, typed together, copies the snippet with the new key.
	const selectedOf = () => {
		const current = listOf(keyIndexOf(chosenId.current));
		return current.find(entry => entry.id === selectedId.current) ?? current[0]!;
	};
	const selected = selectedOf();
	const openForm = (status: ToolStatus | null) => {
		form.set(status);
		onCapture(status === null ? null : 'form');
	};

	useKeypress(
		inkKey => {
			if (form.current) return false; // the form has the keyboard
			const command = resolve(endpointsBindings, inkKey);
			if (command) run(command, {props, keyIndex: keyIndexOf(chosenId.current), selected: selectedOf, takeover, setChosenId: chosenId.set, openForm});
			return command !== undefined;
		},
		{isActive: active},
	);

	const inner = width - 4;
	if (form.current) {
		const tool = form.current;
		const submit = (request: TakeoverRequest) => {
			openForm(null);
			void takeover.apply(tool.tool, request);
		};
		const preview: PreviewFn = (tool, choice) => props.actions.previewTakeover(tool, {...choice, gatewayUrl: baseUrl});
		return (
			<Panel title="Endpoints" subtitle={`take over ${tool.title}`} width={width} height={height}>
				<TakeoverForm status={tool} keys={keys} limitUse={props.limitUse} channels={channels} preview={preview} onSubmit={submit} onCancel={() => openForm(null)} active={active} width={inner} height={height - 3} />
			</Panel>
		);
	}
	// At 24 rows the margins give way, so that every snippet and tool stays in the list.
	const tight = height - 10 < list.length;
	const listHeight = height - (tight ? 8 : 10);
	return (
		<Panel title="Endpoints" subtitle="point any OpenAI, Anthropic or Gemini client here" width={width} height={height}>
			<EndpointTable baseUrl={baseUrl} width={inner} />
			<KeyLine keys={keys} index={keyIndex} tight={tight} reached={shownKey ? reachedText(shownKey, props.limitUse?.get(shownKey.id)) : null} />
			<Box marginTop={tight ? 0 : 1} height={listHeight}>
				<Box flexDirection="column" width={listWidth} flexShrink={0}>
					<Select options={list.map(entry => ({value: entry.id, label: label(entry, takeover.statuses)}))} initialIndex={list.findIndex(entry => entry.id === selected.id)} focused={active} limit={list.length > listHeight ? Math.max(2, listHeight - 1) : listHeight} onHighlight={selectedId.set} />
				</Box>
				<Box flexDirection="column" width={inner - listWidth} paddingLeft={1} borderStyle="single" borderTop={false} borderBottom={false} borderRight={false} borderColor={theme.border} overflowY="hidden">
					{/* A snippet longer than the list is cut at the bottom (c copies all of it), never drawn over itself. */}
					<Box flexDirection="column" flexShrink={0}>
						<Detail entry={selected} takeover={takeover} width={inner - listWidth - 2} />
					</Box>
				</Box>
			</Box>
		</Panel>
	);
}

type PreviewFn = (tool: TakeoverTool, choice: TakeoverChoice & {readonly keyLabel: string}) => Promise<PreviewLine[]>;

/** `width`: the columns inside the detail's border and padding. */
function Detail({entry, takeover, width}: {readonly entry: Entry; readonly takeover: Takeover; readonly width: number}) {
	if (entry.snippet) return <SnippetView snippet={entry.snippet} width={width} />;
	const status = takeover.statuses?.find(item => item.tool === entry.tool);
	if (!status) return null;
	return <ToolView status={status} check={takeover.checks.get(status.tool)} busy={takeover.busy === status.tool} width={width} />;
}

function copy(entry: Entry, key: KeyRecord | undefined, limitUse: ReadonlyMap<string, LimitUse> | undefined, clipboard: ClipboardPort, onStatus: Report): void {
	if (!entry.snippet) return onStatus({kind: 'info', text: 'c copies the selected snippet; on a tool, a points it at the gateway and u undoes that.'});
	if (!key) return onStatus({kind: 'warn', text: 'No key to put into the snippet yet: press 1, then n to create one.'});
	const state = keyState(key);
	const reached = reachedText(key, limitUse?.get(key.id));
	const warning = state !== 'active' ? ` (careful: key "${key.name}" is ${state}; the gateway refuses it)` : reached ? ` (careful: key "${key.name}" is ${reached}; the gateway refuses it until that resets)` : '';
	void copyWithReport(clipboard, entry.snippet.text, `${entry.snippet.what}${warning}`, onStatus);
}
