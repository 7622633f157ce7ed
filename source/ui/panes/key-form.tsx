/**
 * The new-key form: name, description, allowed models (chosen from the configured ones), allowed
 * channels, expiry. Submitting calls `createKey`, the service `gateway-tui keys create` calls; a
 * refusal (a name taken, a date in the past) is shown in the form, which stays open.
 */
import {useState} from 'react';
import type {CreateKeyInput} from '../../services/keys.js';
import type {ChannelRecord, KeyRecord} from '../../store/records.js';
import {Form, listValue, textValue, type Field, type FormValues} from '../components/form.js';
import {errorText} from '../text.js';

type Props = {
	/** Whether the form has the keyboard (its pane is shown). */
	readonly active: boolean;
	readonly channels: readonly ChannelRecord[];
	readonly createKey: (input: CreateKeyInput) => Promise<KeyRecord>;
	readonly onCreated: (key: KeyRecord) => void;
	readonly onCancel: () => void;
};

const expiries = [
	{label: 'never', value: 'never'},
	{label: 'in 1 day', value: '1d'},
	{label: 'in 7 days', value: '7d'},
	{label: 'in 30 days', value: '30d'},
	{label: 'on a date…', value: 'date'},
];

export function keyFormFields(channels: readonly ChannelRecord[], values: FormValues): Field[] {
	const models = [...new Set(channels.flatMap(channel => channel.models.map(model => model.name)))].sort();
	const fields: Field[] = [
		{kind: 'text', id: 'name', label: 'Name', placeholder: 'e.g. laptop (required)'},
		{kind: 'text', id: 'description', label: 'Description', placeholder: '(optional)'},
		{kind: 'multi', id: 'models', label: 'Models', options: models.map(model => ({label: model, value: model})), none: 'all models', hint: 'none chosen = all'},
		{kind: 'multi', id: 'channels', label: 'Channels', options: channels.map(channel => ({label: channel.name, value: channel.id})), none: 'all channels', hint: 'none chosen = all'},
		{kind: 'choice', id: 'expiry', label: 'Expires', options: expiries},
	];
	if (textValue(values, 'expiry') === 'date') fields.push({kind: 'text', id: 'expiresAt', label: 'Expiry date', placeholder: 'YYYY-MM-DD or ISO-8601 time'});
	return fields;
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
	};
}

export function KeyForm({active, channels, createKey, onCreated, onCancel}: Props) {
	const [values, setValues] = useState<FormValues>({expiry: 'never', models: [], channels: []});
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const submit = () => {
		const input = keyInput(values);
		if (input.expiresAt === '') return setError('Type the expiry date, e.g. 2026-12-31, or choose another expiry.');
		setBusy(true);
		createKey(input).then(onCreated, (failure: unknown) => {
			setError(errorText(failure));
			setBusy(false);
		});
	};
	return (
		<Form
			active={active}
			title="New virtual key"
			fields={keyFormFields(channels, values)}
			values={values}
			onChange={next => {
				setValues(next);
				setError(null);
			}}
			onSubmit={submit}
			onCancel={onCancel}
			submitLabel="Create key"
			error={error}
			busy={busy}
		/>
	);
}
