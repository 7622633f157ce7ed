/**
 * Keys pane: the virtual keys in a table, with what each used of its limits; `n` creates one and
 * `e` edits one through a form, `c` copies a secret, `r` revokes, `R` rotates and `d` deletes
 * (each after a y/N question), Enter shows details.
 */
import {Box} from 'ink';
import type {Actions} from '../actions.js';
import type {ClipboardPort} from '../clipboard.js';
import {detailsScrollBindings, keysBindings, resolve, type Capture, type KeysCommand, type DetailsScrollCommand} from '../commands.js';
import {Confirm, isYes} from '../components/confirm.js';
import {Panel} from '../components/panel.js';
import {Table} from '../components/table.js';
import type {ChannelRecord, KeyRecord} from '../../base/records.js';
import {attempt, copyWithReport, type Report} from '../status.js';
import {channelLabel} from '../../services/channels.js';
import {unpricedModels} from '../../services/keys.js';
import {KeyForm} from './key-form.js';
import {detailsRoom, scrollDetails} from '../components/details.js';
import {consequences, KeyDetails, keyColumns, keyDetailRows, keyLimitsText, questions, SecretView, type Danger} from './key-views.js';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {useTimeTexts} from '../hooks/use-time-texts.js';
import {keyStateText, relative} from '../text.js';
import {type LimitUse} from '../../base/periods.js';

export type KeysPaneProps = {
	readonly keys: readonly KeyRecord[];
	readonly channels: readonly ChannelRecord[];
	readonly lastUsed: ReadonlyMap<string, string>;
	/** Requests per key id. */
	readonly requests: ReadonlyMap<string, number>;
	/** Key id → what it used of its limits (keys without limits have none). */
	readonly limitUse?: ReadonlyMap<string, LimitUse>;
	readonly actions: Pick<Actions, 'createKey' | 'editKey' | 'revokeKey' | 'rotateKey' | 'deleteKey'>;
	readonly clipboard: ClipboardPort;
	readonly onStatus: Report;
	/** Told when a form or question takes the keyboard (global keys pause meanwhile). */
	readonly onCapture: (captured: Capture) => void;
	/** Told of the key the user selects (↑/↓), creates or rotates here: the Endpoints pane shows that key's snippets next. */
	readonly onKeyInFocus?: (id: string) => void;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
};

type Mode = {kind: 'list'} | {kind: 'details'} | {kind: 'form'; key?: KeyRecord} | {kind: 'confirm'; danger: Danger; key: KeyRecord} | {kind: 'secret'; key: KeyRecord; verb: string};

type Answer = {readonly actions: KeysPaneProps['actions']; readonly onStatus: Report; readonly setMode: (mode: Mode) => void; readonly onKeyInFocus?: (id: string) => void};

/** The y/N answer to a question about a key. */
async function answer({actions, onStatus, setMode, onKeyInFocus}: Answer, yes: boolean, danger: Danger, target: KeyRecord): Promise<void> {
	setMode({kind: 'list'});
	if (!yes) return onStatus({kind: 'info', text: `Kept key "${target.name}" as it was.`});
	if (danger === 'revoke') await attempt(onStatus, () => actions.revokeKey(target.id), () => `Revoked key "${target.name}": clients using it get 401 from now on.`);
	if (danger === 'delete') await attempt(onStatus, () => actions.deleteKey(target.id), () => `Deleted key "${target.name}".`);
	if (danger === 'rotate') {
		const rotated = await attempt(onStatus, () => actions.rotateKey(target.id), () => `Rotated key "${target.name}": the old secret no longer works.`);
		if (!rotated) return;
		// Its new secret is what the Endpoints pane's snippets need next.
		onKeyInFocus?.(rotated.id);
		setMode({kind: 'secret', key: rotated, verb: 'rotated'});
	}
}

export function KeysPane(props: KeysPaneProps) {
	const {keys, clipboard, onStatus, onCapture, active} = props;
	const selected = useKeyState(0);
	// What the pane shows decides who gets the next key (the list, the form, the question).
	const mode = useKeyState<Mode>({kind: 'list'}, {moves: true});
	/** The first line of a key's details in sight, where they do not fit. */
	const detailsTop = useKeyState(0);
	const index = Math.min(selected.current, keys.length - 1);
	const setMode = (next: Mode) => {
		mode.set(next);
		onCapture(next.kind === 'form' ? 'form' : next.kind === 'confirm' ? 'question' : null);
	};

	const run = (command: KeysCommand | DetailsScrollCommand) => {
		const at = Math.min(selected.current, keys.length - 1);
		const shown = mode.current;
		// A new or rotated secret on screen: c copies that one, whatever row the list has selected.
		const key = shown.kind === 'secret' ? shown.key : keys[at];
		if (command === 'new-key') return setMode({kind: 'form'});
		if (command === 'page-up' || command === 'page-down') {
			if (shown.kind === 'details' && key) detailsTop.set(scrollDetails(detailRows(props, key), detailsRoom(props), detailsTop.current, command));
			return;
		}
		// Another key's details, or the same key's again, start at their top (copying or editing keeps the place).
		if (command === 'up' || command === 'down' || command === 'details') detailsTop.set(0);
		if (command === 'up' || command === 'down') {
			const next = command === 'up' ? Math.max(0, at - 1) : Math.min(keys.length - 1, at + 1);
			selected.set(next);
			const focused = keys[next];
			if (focused) props.onKeyInFocus?.(focused.id);
			return;
		}
		if (command === 'back') return setMode({kind: 'list'});
		if (!key) return onStatus({kind: 'info', text: 'No keys yet: press n to create one.'});
		if (command === 'details') return setMode({kind: 'details'});
		if (command === 'edit-key') return setMode({kind: 'form', key});
		if (command === 'copy-key') return void copyWithReport(clipboard, key.secret, `the secret of key "${key.name}"`, onStatus);
		if (command === 'revoke-key' && key.revokedAt) return onStatus({kind: 'info', text: `Key "${key.name}" is revoked already.`});
		setMode({kind: 'confirm', danger: command === 'revoke-key' ? 'revoke' : command === 'rotate-key' ? 'rotate' : 'delete', key});
	};

	useKeypress(
		key => {
			if (mode.current.kind === 'form') return false; // the form's own layers have the keyboard
			const command = resolve(keysBindings, key) ?? (mode.current.kind === 'details' ? resolve(detailsScrollBindings, key) : undefined);
			if (command) run(command);
			return command !== undefined;
		},
		{isActive: active},
	);
	// A question takes every key: y confirms, anything else keeps the key as it was.
	useKeypress(
		key => {
			const current = mode.current;
			if (current.kind === 'confirm') void answer({actions: props.actions, onStatus, setMode, onKeyInFocus: props.onKeyInFocus}, isYes(key), current.danger, current.key);
			return true;
		},
		{layer: 'confirm', isActive: active && mode.current.kind === 'confirm'},
	);

	const onDone = (saved: KeyRecord, verb: 'created' | 'saved') => {
		// A budget over models without a price never fills: said with the key, where it was set (in the status bar's two lines).
		const caveat = unpricedBudgetText(saved, props.channels);
		if (verb === 'saved') {
			setMode({kind: 'list'});
			return onStatus(caveat ? {kind: 'warn', text: `Saved key "${saved.name}". ${caveat}`} : {kind: 'ok', text: `Saved key "${saved.name}": the gateway applies it from the next request.`});
		}
		selected.set(keys.length);
		props.onKeyInFocus?.(saved.id);
		setMode({kind: 'secret', key: saved, verb: 'created'});
		const created = `Created key "${saved.name}". Press c to copy its secret.`;
		onStatus(caveat ? {kind: 'warn', text: `${created} ${caveat}`} : {kind: 'ok', text: created});
	};
	return (
		<Panel title="Virtual keys" subtitle={`${keys.length} key${keys.length === 1 ? '' : 's'} · clients only ever see these`} width={props.width} height={props.height}>
			<KeysBody {...props} mode={mode.current} index={index} detailsTop={detailsTop.current} onDone={onDone} onCancel={() => setMode({kind: 'list'})} />
		</Panel>
	);
}

type BodyProps = KeysPaneProps & {readonly mode: Mode; readonly index: number; readonly detailsTop: number; readonly onDone: (key: KeyRecord, verb: 'created' | 'saved') => void; readonly onCancel: () => void};

/** `Its budget cannot count llama3.2 on "local" (no price, so $0): …` — short, for the status bar — or undefined. */
function unpricedBudgetText(key: KeyRecord, channels: readonly ChannelRecord[]): string | undefined {
	if (!key.limits?.budget) return undefined;
	const unpriced = unpricedModels(key, channels);
	const models = unpriced.flatMap(item => item.models);
	if (models.length === 0) return undefined;
	const names = unpriced.map(item => `"${item.channel.name}"`).join(', ');
	const what = models.length <= 2 ? `${models.join(', ')} on ${names}` : `${models.length} models on ${names}`;
	return `Its budget cannot count ${what} (no price, so $0): 2, then e on the channel sets prices.`;
}

const noUse: ReadonlyMap<string, LimitUse> = new Map();
const noTimes: ReadonlyArray<(now: number) => string> = [];


/** What a key's details show, from the pane's data. */
function detailRows({channels, lastUsed, requests, limitUse = noUse}: KeysPaneProps, key: KeyRecord) {
	return keyDetailRows({keyRecord: key, channelName: channelLabel(channels), lastUsed: lastUsed.get(key.id) ?? null, requests: requests.get(key.id) ?? 0, limits: keyLimitsText(key, limitUse)});
}

function KeysBody(props: BodyProps) {
	const {keys, channels, lastUsed, requests, limitUse = noUse, actions, active, width, height, mode, index, detailsTop, onDone, onCancel} = props;
	const key = keys[index];
	const channelName = channelLabel(channels);
	// The list's STATE and LAST USED, the details' state and last use: the form and a new secret show no time.
	const timesShown = active && mode.kind !== 'form' && mode.kind !== 'secret';
	useTimeTexts(timesShown ? keys.flatMap(row => [(now: number) => keyStateText(row, now), (now: number) => relative(lastUsed.get(row.id) ?? null, now)]) : noTimes);
	if (mode.kind === 'form') {
		return <KeyForm active={active} channels={channels} keyRecord={mode.key} createKey={actions.createKey} editKey={actions.editKey} onCancel={onCancel} onDone={onDone} height={height - 3} width={width - 4} />;
	}
	if (mode.kind === 'secret') return <SecretView keyRecord={mode.key} verb={mode.verb} />;
	if (mode.kind === 'details' && key) {
		return <KeyDetails rows={detailRows(props, key)} {...detailsRoom(props)} top={detailsTop} />;
	}
	return (
		<Box flexDirection="column">
			<Table columns={keyColumns({channelName, lastUsed, requests, limitUse})} rows={keys} rowKey={row => row.id} selected={active ? index : -1} width={width - 4} height={height - (mode.kind === 'confirm' ? 8 : 3)} empty="No keys yet. Press n to create one." />
			{mode.kind === 'confirm' ? <Confirm question={questions[mode.danger](mode.key.name)} consequence={consequences[mode.danger]} /> : null}
		</Box>
	);
}
