/**
 * The key form, to create a key or edit one: name, description, allowed models (chosen from the
 * configured ones), allowed channels, expiry, and limits (see limit-fields.ts). Submitting calls
 * `createKey` or `editKey`, the services `gateway-tui keys create` / `keys edit` call; an edit
 * gives only what changed, as flags would. A refusal (a name taken, a date in the past, a limit
 * that is not a number) is shown in the form, which stays open.
 */
import {useState} from 'react';
import type {CreateKeyInput, EditKeyInput} from '../../services/keys.js';
import {channelLabel} from '../../services/channels.js';
import type {ChannelRecord, KeyRecord} from '../../base/records.js';
import {Form, listValue, textValue, type Field, type FormValues} from '../components/form.js';
import {errorText} from '../text.js';
import {formError} from '../form-errors.js';
import {limitFields, limitFlags, limitValues} from './limit-fields.js';

type Props = {
	/** Whether the form has the keyboard (its pane is shown). */
	readonly active: boolean;
	readonly channels: readonly ChannelRecord[];
	/** The key to edit; none to create one. */
	readonly keyRecord?: KeyRecord;
	readonly createKey: (input: CreateKeyInput) => Promise<KeyRecord>;
	readonly editKey: (ref: string, input: EditKeyInput) => Promise<KeyRecord>;
	readonly onDone: (key: KeyRecord, verb: 'created' | 'saved') => void;
	readonly onCancel: () => void;
	/** Lines the form may take (fields beyond scroll). */
	readonly height?: number;
	/** Columns the form may take (its hint line fits them). */
	readonly width?: number;
};

const expiries = [
	{label: 'never', value: 'never'},
	{label: 'in 1 day', value: '1d'},
	{label: 'in 7 days', value: '7d'},
	{label: 'in 30 days', value: '30d'},
	{label: 'on a date…', value: 'date'},
];

/** Options of a list: the configured ones, and any the key allows that are gone since (kept, not silently dropped, and `gone` says so). */
function options(configured: ReadonlyArray<{label: string; value: string}>, chosen: readonly string[], gone: (value: string) => string = value => value) {
	return [...configured, ...chosen.filter(value => !configured.some(option => option.value === value)).map(value => ({label: gone(value), value}))];
}

export function keyFormFields(channels: readonly ChannelRecord[], values: FormValues, editing?: KeyRecord): Field[] {
	const models = [...new Set(channels.flatMap(channel => channel.models.map(model => model.name)))].sort().map(model => ({label: model, value: model}));
	const keep = editing?.expiresAt ? [{label: `unchanged (${editing.expiresAt})`, value: 'keep'}] : [];
	const fields: Field[] = [
		{kind: 'text', id: 'name', label: 'Name', placeholder: 'e.g. laptop (required)'},
		{kind: 'text', id: 'description', label: 'Description', placeholder: '(optional)'},
		{kind: 'multi', id: 'models', label: 'Models', options: options(models, listValue(values, 'models')), none: 'all models', hint: 'none chosen = all'},
		{kind: 'multi', id: 'channels', label: 'Channels', options: options(channels.map(channel => ({label: channel.name, value: channel.id})), listValue(values, 'channels'), channelLabel(channels)), none: 'all channels', hint: 'none chosen = all'},
		{kind: 'choice', id: 'expiry', label: 'Expires', options: [...keep, ...expiries]},
	];
	if (textValue(values, 'expiry') === 'date') fields.push({kind: 'text', id: 'expiresAt', label: 'Expiry date', placeholder: 'YYYY-MM-DD or ISO-8601 time'});
	return [...fields, ...limitFields(values)];
}

export function initialKeyValues(key?: KeyRecord): FormValues {
	if (!key) return {expiry: 'never', models: [], channels: [], ...limitValues(undefined)};
	return {name: key.name, description: key.description, models: key.models, channels: key.channels, expiry: key.expiresAt ? 'keep' : 'never', ...limitValues(key.limits)};
}

type Expiry = Pick<EditKeyInput, 'expiresIn' | 'expiresAt' | 'neverExpires'>;

function expiryInput(values: FormValues, key?: KeyRecord): Expiry {
	const expiry = textValue(values, 'expiry');
	if (expiry === 'date') return {expiresAt: textValue(values, 'expiresAt')};
	if (expiry === 'never') return key?.expiresAt ? {neverExpires: true} : {};
	return expiry === 'keep' ? {} : {expiresIn: expiry};
}

export function keyInput(values: FormValues): CreateKeyInput {
	const expiry = textValue(values, 'expiry');
	return {
		name: textValue(values, 'name'),
		description: textValue(values, 'description'),
		models: listValue(values, 'models'),
		channels: listValue(values, 'channels'),
		expiresIn: expiry === 'never' || expiry === 'date' ? undefined : expiry,
		expiresAt: expiry === 'date' ? textValue(values, 'expiresAt') : undefined,
		...limitFlags(values),
	};
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every(item => b.includes(item));

/** What changed, as `keys edit` flags: unchanged settings are not given, so they stay as they are. */
export function editInput(values: FormValues, key: KeyRecord): EditKeyInput {
	const input: EditKeyInput = {...expiryInput(values, key), ...limitFlags(values, key.limits)};
	const name = textValue(values, 'name');
	const description = textValue(values, 'description');
	if (name !== key.name) input.name = name;
	if (description !== key.description) input.description = description;
	if (!sameList(listValue(values, 'models'), key.models)) input.models = listValue(values, 'models');
	if (!sameList(listValue(values, 'channels'), key.channels)) input.channels = listValue(values, 'channels');
	return input;
}

export function KeyForm({active, channels, keyRecord, createKey, editKey, onDone, onCancel, height, width}: Props) {
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const submit = (values: FormValues) => {
		if (textValue(values, 'expiry') === 'date' && textValue(values, 'expiresAt').trim() === '') return setError('Expiry date: type the date, e.g. 2026-12-31, or choose another expiry above.');
		setBusy(true);
		const saving = keyRecord ? editKey(keyRecord.id, editInput(values, keyRecord)).then(key => onDone(key, 'saved')) : createKey(keyInput(values)).then(key => onDone(key, 'created'));
		saving.catch((failure: unknown) => {
			setError(formError(errorText(failure)));
			setBusy(false);
		});
	};
	return (
		<Form
			active={active}
			title={keyRecord ? `Edit key "${keyRecord.name}"` : 'New virtual key'}
			fields={values => keyFormFields(channels, values, keyRecord)}
			initial={initialKeyValues(keyRecord)}
			onChange={() => setError(null)}
			onSubmit={submit}
			onCancel={onCancel}
			submitLabel={keyRecord ? 'Save key' : 'Create key'}
			error={error}
			busy={busy}
			height={height}
			width={width}
		/>
	);
}
