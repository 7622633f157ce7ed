/**
 * Keys pane: the virtual keys in a table, with what each used of its limits; `n` creates one and
 * `e` edits one through a form, `c` copies a secret, `r` revokes, `R` rotates and `d` deletes
 * (each after a y/N question), Enter shows details.
 */
import {useState} from 'react';
import {Box} from 'ink';
import type {Actions} from '../actions.js';
import type {ClipboardPort} from '../clipboard.js';
import {keysBindings, resolve, type KeysCommand} from '../commands.js';
import {Confirm, isYes} from '../components/confirm.js';
import {Panel} from '../components/panel.js';
import {Table} from '../components/table.js';
import type {ChannelRecord, KeyRecord} from '../../base/records.js';
import {attempt, copyWithReport, type Report} from '../status.js';
import {KeyForm} from './key-form.js';
import {consequences, KeyDetails, keyColumns, keyLimitsText, questions, SecretView, type Danger} from './key-views.js';
import {useKeypress} from '../hooks/use-keypress.js';
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
	readonly onCapture: (captured: boolean) => void;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
};

type Mode = {kind: 'list'} | {kind: 'details'} | {kind: 'form'; key?: KeyRecord} | {kind: 'confirm'; danger: Danger; key: KeyRecord} | {kind: 'secret'; key: KeyRecord; verb: string};

type Answer = {readonly actions: KeysPaneProps['actions']; readonly onStatus: Report; readonly setMode: (mode: Mode) => void};

/** The y/N answer to a question about a key. */
async function answer({actions, onStatus, setMode}: Answer, yes: boolean, danger: Danger, target: KeyRecord): Promise<void> {
	setMode({kind: 'list'});
	if (!yes) return onStatus({kind: 'info', text: `Kept key "${target.name}" as it was.`});
	if (danger === 'revoke') await attempt(onStatus, () => actions.revokeKey(target.id), () => `Revoked key "${target.name}": clients using it get 401 from now on.`);
	if (danger === 'delete') await attempt(onStatus, () => actions.deleteKey(target.id), () => `Deleted key "${target.name}".`);
	if (danger === 'rotate') {
		const rotated = await attempt(onStatus, () => actions.rotateKey(target.id), () => `Rotated key "${target.name}": the old secret no longer works.`);
		if (rotated) setMode({kind: 'secret', key: rotated, verb: 'rotated'});
	}
}

export function KeysPane(props: KeysPaneProps) {
	const {keys, clipboard, onStatus, onCapture, active} = props;
	const [selected, setSelected] = useState(0);
	const [mode, setModeState] = useState<Mode>({kind: 'list'});
	const index = Math.min(selected, keys.length - 1);
	const key = keys[index];
	const setMode = (next: Mode) => {
		setModeState(next);
		onCapture(next.kind === 'form' || next.kind === 'confirm');
	};

	const run = (command: KeysCommand) => {
		if (command === 'new-key') return setMode({kind: 'form'});
		if (command === 'up') return setSelected(Math.max(0, index - 1));
		if (command === 'down') return setSelected(Math.min(keys.length - 1, index + 1));
		if (command === 'back') return setMode({kind: 'list'});
		if (!key) return onStatus({kind: 'info', text: 'No keys yet: press n to create one.'});
		if (command === 'details') return setMode({kind: 'details'});
		if (command === 'edit-key') return setMode({kind: 'form', key});
		if (command === 'copy-key') return void copyWithReport(clipboard, key.secret, `the secret of key "${key.name}"`, onStatus);
		if (command === 'revoke-key' && key.revokedAt) return onStatus({kind: 'info', text: `Key "${key.name}" is revoked already.`});
		setMode({kind: 'confirm', danger: command === 'revoke-key' ? 'revoke' : command === 'rotate-key' ? 'rotate' : 'delete', key});
	};

	useKeypress(
		(input, inkKey) => {
			if (mode.kind === 'form') return; // the form's fields and its own handler have the keyboard
			if (mode.kind === 'confirm') return void answer({actions: props.actions, onStatus, setMode}, isYes(input), mode.danger, mode.key);
			const command = resolve(keysBindings, input, inkKey);
			if (command) run(command);
		},
		{isActive: active},
	);

	const onDone = (saved: KeyRecord, verb: 'created' | 'saved') => {
		if (verb === 'saved') {
			setMode({kind: 'list'});
			return onStatus({kind: 'ok', text: `Saved key "${saved.name}": the gateway applies it from the next request.`});
		}
		setSelected(keys.length);
		setMode({kind: 'secret', key: saved, verb: 'created'});
		onStatus({kind: 'ok', text: `Created key "${saved.name}". Press c to copy its secret.`});
	};
	return (
		<Panel title="Virtual keys" subtitle={`${keys.length} key${keys.length === 1 ? '' : 's'} · clients only ever see these`} width={props.width} height={props.height}>
			<KeysBody {...props} mode={mode} index={index} onDone={onDone} onCancel={() => setMode({kind: 'list'})} />
		</Panel>
	);
}

type BodyProps = KeysPaneProps & {readonly mode: Mode; readonly index: number; readonly onDone: (key: KeyRecord, verb: 'created' | 'saved') => void; readonly onCancel: () => void};

const noUse: ReadonlyMap<string, LimitUse> = new Map();

function KeysBody({keys, channels, lastUsed, requests, limitUse = noUse, actions, active, width, height, mode, index, onDone, onCancel}: BodyProps) {
	const key = keys[index];
	const channelName = (id: string) => channels.find(channel => channel.id === id)?.name ?? id;
	if (mode.kind === 'form') {
		return <KeyForm active={active} channels={channels} keyRecord={mode.key} createKey={actions.createKey} editKey={actions.editKey} onCancel={onCancel} onDone={onDone} height={height - 3} />;
	}
	if (mode.kind === 'secret') return <SecretView keyRecord={mode.key} verb={mode.verb} />;
	if (mode.kind === 'details' && key) {
		return <KeyDetails keyRecord={key} channelName={channelName} lastUsed={lastUsed.get(key.id) ?? null} requests={requests.get(key.id) ?? 0} limits={keyLimitsText(key, limitUse)} />;
	}
	return (
		<Box flexDirection="column">
			<Table columns={keyColumns({channelName, lastUsed, requests, limitUse})} rows={keys} rowKey={row => row.id} selected={active ? index : -1} width={width - 4} height={height - (mode.kind === 'confirm' ? 8 : 3)} empty="No keys yet. Press n to create one." />
			{mode.kind === 'confirm' ? <Confirm question={questions[mode.danger](mode.key.name)} consequence={consequences[mode.danger]} /> : null}
		</Box>
	);
}
