/**
 * The add/edit channel form. Choosing a provider preset fills the format and base URL; the real key
 * is typed masked (and on edit, left empty to keep the current one); models are a comma-separated
 * list with optional `alias=upstream`; prices a comma-separated list of `model=in/out[/cached]` in
 * USD per 1M tokens. Submitting calls the same service as `gateway-tui channels add` / `channels
 * edit` (prices as its `--price` flags; a price taken out of the list is cleared with `model=`).
 */
import {useState} from 'react';
import type {AddChannelInput, EditChannelInput} from '../../services/channels.js';
import {formatModels} from '../../services/parse.js';
import {formatPrices, parsePriceSpecs} from '../../base/prices.js';
import type {ChannelRecord} from '../../base/records.js';
import {Form, textValue, type Field, type FormValues} from '../components/form.js';
import {presetById, presets, type Preset} from '../presets.js';
import {errorText} from '../text.js';
import {formError} from '../form-errors.js';
import {maskSecret} from '../../base/secrets.js';

type Props = {
	/** Whether the form has the keyboard (its pane is shown). */
	readonly active: boolean;
	/** The channel to edit; none to add one. */
	readonly channel?: ChannelRecord;
	readonly addChannel: (input: AddChannelInput) => Promise<ChannelRecord>;
	readonly editChannel: (ref: string, input: EditChannelInput) => Promise<ChannelRecord>;
	readonly onDone: (channel: ChannelRecord, verb: string) => void;
	readonly onCancel: () => void;
	/** Lines the form may take (fields beyond scroll). */
	readonly height?: number;
	readonly width?: number;
};

const formats = ['openai', 'anthropic', 'gemini'].map(format => ({label: format, value: format}));

export function channelFormFields(values: FormValues, editing?: ChannelRecord): Field[] {
	const preset = presetById(textValue(values, 'preset'));
	const model = textValue(values, 'models').split(',')[0]!.split('=')[0]!.trim() || 'MODEL';
	const fields: Field[] = [
		{kind: 'text', id: 'name', label: 'Name', placeholder: 'e.g. openai (required)'},
		{kind: 'choice', id: 'format', label: 'Format', options: formats, hint: 'the wire format the provider speaks'},
		{kind: 'text', id: 'baseUrl', label: 'Base URL', placeholder: 'https://…'},
		{
			kind: 'text',
			id: 'apiKey',
			label: 'API key',
			mask: true,
			placeholder: editing ? `unchanged (${maskSecret(editing.apiKey)}); type to replace` : preset.needsKey ? "the provider's real key" : '(not needed for local providers)',
		},
		{kind: 'text', id: 'models', label: 'Models', placeholder: `e.g. ${preset.models || 'model-a, alias=model-b'}`, hint: 'comma-separated; alias=upstream renames'},
		{kind: 'text', id: 'prices', label: 'Prices', placeholder: pricesPlaceholder(preset, model), hint: 'model=in/out[/cached] USD per 1M tokens, comma-separated'},
		{kind: 'text', id: 'priority', label: 'Priority', placeholder: '0', hint: 'higher is tried first'},
	];
	return editing ? fields : [{kind: 'choice', id: 'preset', label: 'Provider', options: presets.map(item => ({label: item.label, value: item.id}))}, ...fields];
}

/**
 * No figures of ours (a provider's prices change, and a copied example would be wrong): where the
 * preset's provider lists them, or the syntax.
 */
function pricesPlaceholder(preset: Preset, model: string): string {
	if (!preset.needsKey) return 'none (a local model costs nothing)';
	if (preset.pricing) return `none (see ${preset.pricing})`;
	return `none, e.g. ${model}=IN/OUT/CACHED`;
}

export function initialChannelValues(channel?: ChannelRecord): FormValues {
	if (!channel) return {preset: 'openai', name: 'openai', format: 'openai', baseUrl: presetById('openai').baseUrl, apiKey: '', models: presetById('openai').models, prices: '', priority: ''};
	return {name: channel.name, format: channel.format, baseUrl: channel.baseUrl, apiKey: '', models: formatModels(channel.models), prices: pricesText(channel.prices), priority: String(channel.priority)};
}

/** `gpt-4o=2.5/10/1.25, fast=0.15/0.6`, or empty. */
export function pricesText(prices: ChannelRecord['prices']): string {
	const text = formatPrices(prices);
	return text === '-' ? '' : text;
}

/**
 * The `--price` flags for the prices field: none when it is empty on add or unchanged on edit;
 * on edit also `model=` for each price no longer listed. Malformed entries throw the service's
 * UserError.
 */
export function priceFlags(text: string, channel?: ChannelRecord): string[] | undefined {
	if (channel && text.trim() === pricesText(channel.prices)) return undefined;
	const entries = text.split(',').map(entry => entry.trim()).filter(Boolean);
	const listed = new Set(parsePriceSpecs(entries).map(spec => spec.model));
	const cleared = Object.keys(channel?.prices ?? {}).filter(model => !listed.has(model)).map(model => `${model}=`);
	const flags = [...entries, ...cleared];
	return flags.length > 0 ? flags : undefined;
}

/** A new preset fills format, URL and its models, and the name unless the user typed one (and the models unless they edited them). */
export function applyPreset(values: FormValues, previous: FormValues): FormValues {
	const preset = presetById(textValue(values, 'preset'));
	const oldPreset = presetById(textValue(previous, 'preset'));
	const name = textValue(values, 'name');
	const models = textValue(values, 'models');
	return {
		...values,
		format: preset.format,
		baseUrl: preset.baseUrl,
		name: name === '' || name === oldPreset.id ? preset.id : name,
		models: models === '' || models === oldPreset.models ? preset.models : models,
	};
}

export function ChannelForm({active, channel, addChannel, editChannel, onDone, onCancel, height, width}: Props) {
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	const fail = (failure: unknown) => {
		setError(formError(errorText(failure)));
		setBusy(false);
	};
	const submit = (values: FormValues) => {
		const input = {
			name: textValue(values, 'name'),
			format: textValue(values, 'format'),
			baseUrl: textValue(values, 'baseUrl'),
			models: textValue(values, 'models'),
			priority: textValue(values, 'priority').trim() || '0',
		};
		const apiKey = textValue(values, 'apiKey');
		let prices: string[] | undefined;
		try {
			prices = priceFlags(textValue(values, 'prices'), channel);
		} catch (failure) {
			return fail(failure);
		}
		const priced = prices ? {prices} : {};
		setBusy(true);
		const saving = channel ? editChannel(channel.id, {...input, apiKey: apiKey || undefined, ...priced}) : addChannel({...input, apiKey, ...priced});
		saving.then(saved => onDone(saved, channel ? 'saved' : 'added'), fail);
	};
	return (
		<Form
			active={active}
			title={channel ? `Edit channel "${channel.name}"` : 'New channel'}
			fields={values => channelFormFields(values, channel)}
			initial={initialChannelValues(channel)}
			derive={(next, previous, changed) => (changed === 'preset' ? applyPreset(next, previous) : next)}
			onChange={() => setError(null)}
			onSubmit={submit}
			onCancel={onCancel}
			submitLabel={channel ? 'Save channel' : 'Add channel'}
			error={error}
			busy={busy}
			height={height}
			width={width}
		/>
	);
}
