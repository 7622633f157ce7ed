/**
 * The takeover form of the Endpoints pane: the key (the tool's own `takeover-<tool>` unless another
 * is chosen here), the model from those the key may use (and Claude Code's fast model), for Gemini
 * CLI whether it should work in every folder, and a preview of the lines to be written.
 */
import {useEffect, useState} from 'react';
import {Box, Text} from 'ink';
import type {ChannelRecord, KeyRecord} from '../../base/records.js';
import type {PreviewLine, TakeoverTool, ToolStatus} from '../../services/takeover/index.js';
import type {TakeoverApply, TakeoverChoice} from '../actions.js';
import {Form, textValue, type Field, type FormValues} from '../components/form.js';
import {fieldLines} from '../components/form-window.js';
import {chosenKey, defaultFastModel, defaultModel, keyOptions, modelOptions, ownKey, usableModels} from '../takeover-choices.js';
import {tilde} from '../takeover-text.js';
import {errorText} from '../text.js';
import {theme} from '../theme.js';
import type {LimitUse} from '../../base/periods.js';
import {takeoverKeyName} from '../../services/takeover/index.js';

export type TakeoverRequest = Omit<TakeoverApply, 'gatewayUrl'>;

type Props = {
	readonly status: ToolStatus;
	readonly keys: readonly KeyRecord[];
	/** What each limited key used of its limits: a key at one is marked in the list. */
	readonly limitUse?: ReadonlyMap<string, LimitUse>;
	readonly channels: readonly ChannelRecord[];
	readonly preview: (tool: TakeoverTool, choice: TakeoverChoice & {readonly keyLabel: string}) => Promise<PreviewLine[]>;
	readonly onSubmit: (request: TakeoverRequest) => void;
	readonly onCancel: () => void;
	readonly active: boolean;
	readonly width: number;
	readonly height: number;
};

const folderOptions = [
	{label: 'trusted folders only (Gemini CLI asks per folder)', value: 'trusted'},
	{label: 'every folder (turns off its folder trust)', value: 'all'},
];

function fields(status: ToolStatus, keys: readonly KeyRecord[], models: readonly string[], limitUse?: ReadonlyMap<string, LimitUse>): Field[] {
	const list = modelOptions(models, status.model);
	const out: Field[] = [
		{kind: 'choice', id: 'key', label: 'Key', options: keyOptions(status.tool, keys, limitUse), hint: 'the virtual key the tool sends'},
		{kind: 'choice', id: 'model', label: 'Model', options: list, hint: 'models this key may use'},
	];
	if (status.tool === 'claude') out.push({kind: 'choice', id: 'fastModel', label: 'Fast model', options: list, hint: 'for background tasks (ANTHROPIC_DEFAULT_HAIKU_MODEL)'});
	if (status.tool === 'gemini') out.push({kind: 'choice', id: 'folders', label: 'Folders', options: folderOptions, hint: 'Gemini CLI reads ~/.gemini/.env only in trusted folders'});
	return out;
}

function initialValues(status: ToolStatus, keys: readonly KeyRecord[], channels: readonly ChannelRecord[]): FormValues {
	const models = usableModels(channels, chosenKey(status.tool, keys, ownKey));
	const model = defaultModel(status.tool, models, status.model);
	return {key: ownKey, model, fastModel: defaultFastModel(status.tool, models, model), folders: 'trusted'};
}

/** A new key may allow other models: keep the chosen ones where they still are allowed. */
function withKey(values: FormValues, status: ToolStatus, keys: readonly KeyRecord[], channels: readonly ChannelRecord[]): FormValues {
	const models = usableModels(channels, chosenKey(status.tool, keys, textValue(values, 'key')));
	const model = models.includes(textValue(values, 'model')) ? textValue(values, 'model') : defaultModel(status.tool, models, status.model);
	const fast = models.includes(textValue(values, 'fastModel')) ? textValue(values, 'fastModel') : defaultFastModel(status.tool, models, model);
	return {...values, model, fastModel: fast};
}

function choiceOf(status: ToolStatus, values: FormValues): TakeoverChoice {
	const model = textValue(values, 'model') || undefined;
	return {model, ...(status.tool === 'claude' ? {fastModel: textValue(values, 'fastModel') || model} : {}), ...(status.tool === 'gemini' ? {allFolders: textValue(values, 'folders') === 'all'} : {})};
}

export function TakeoverForm({status, keys, limitUse, channels, preview, onSubmit, onCancel, active, width, height}: Props) {
	const [initial] = useState<FormValues>(() => initialValues(status, keys, channels));
	// What the form shows, for the preview (the form itself keeps the values keys change).
	const [values, setValues] = useState<FormValues>(initial);
	const [error, setError] = useState<string | null>(null);
	const [focused, setFocused] = useState(0);
	const [lines, setLines] = useState<readonly PreviewLine[] | string>([]);
	const key = chosenKey(status.tool, keys, textValue(values, 'key'));
	const keyLabel = `<key ${key?.name ?? takeoverKeyName(status.tool)}>`;
	const choice = choiceOf(status, values);

	useEffect(() => {
		let current = true;
		preview(status.tool, {...choice, keyLabel}).then(
			result => current && setLines(result),
			(failure: unknown) => current && setLines(errorText(failure)),
		);
		return () => {
			current = false;
		};
	}, [status.tool, keyLabel, choice.model, choice.fastModel, choice.allFolders]);

	const submit = (submitted: FormValues) => {
		const chosen = choiceOf(status, submitted);
		if (!chosen.model) return setError(noModelText(chosenKey(status.tool, keys, textValue(submitted, 'key')), channels));
		const ref = textValue(submitted, 'key');
		onSubmit({...chosen, key: ref === ownKey ? undefined : ref, force: true});
	};
	const fieldsOf = (current: FormValues) => fields(status, keys, usableModels(channels, chosenKey(status.tool, keys, textValue(current, 'key'))), limitUse);
	const rows = typeof lines === 'string' ? lines : previewRows(lines);
	const formFields = fieldsOf(values);
	const elsewhere = status.state === 'connected-elsewhere' ? 1 : 0;
	// The form as it is now (the focused list open, an error shown) gets its lines first; the preview the rest.
	const formNeed = 4 + formFields.reduce((sum, field, index) => sum + fieldLines(field, index === focused), 0) + (error ? 2 : 0);
	const previewHeight = Math.max(2, Math.min(typeof rows === 'string' ? 2 : rows.length + 1, height - elsewhere - formNeed));
	return (
		<Box flexDirection="column" width={width}>
			{status.state === 'connected-elsewhere' ? <Text color={theme.warn} wrap="truncate">{`${status.title} points at ${status.address ?? 'another address'} now: this replaces it (u puts it back).`}</Text> : null}
			<Form
				title={`Take over ${status.title}`}
				fields={fieldsOf}
				initial={initial}
				derive={(next, _previous, changed) => (changed === 'key' ? withKey(next, status, keys, channels) : next)}
				onChange={next => {
					setValues(next);
					setError(null);
				}}
				onSubmit={submit}
				onCancel={onCancel}
				submitLabel={`Take over ${status.title}`}
				active={active}
				error={error}
				height={height - previewHeight - elsewhere}
				width={width}
				onFocus={setFocused}
			/>
			<Preview rows={rows} height={previewHeight} width={width} />
		</Box>
	);
}

function noModelText(key: KeyRecord | undefined, channels: readonly ChannelRecord[]): string {
	if (!channels.some(channel => channel.enabled)) return 'Model: no channel is enabled. Add or enable one (2, then n or Space), then take over again.';
	return `Model: no enabled channel serves a model the key ${key ? `"${key.name}" ` : ''}may use. Choose another key, or allow the key a served model (1, then e).`;
}

type PreviewRow = {readonly file?: string; readonly line?: PreviewLine};

/** A `Writes <file>` row before each file's lines. */
function previewRows(lines: readonly PreviewLine[]): PreviewRow[] {
	const rows: PreviewRow[] = [];
	for (const line of lines) {
		const last = rows.at(-1);
		if ((last?.line?.file ?? last?.file) !== line.file) rows.push({file: line.file});
		rows.push({line});
	}
	return rows;
}

function Preview({rows, height, width}: {readonly rows: readonly PreviewRow[] | string; readonly height: number; readonly width: number}) {
	if (typeof rows === 'string') return <Text color={theme.error}>{rows}</Text>;
	const fits = rows.length <= height - 1;
	const shown = fits ? rows : rows.slice(0, Math.max(1, height - 2));
	return (
		<Box flexDirection="column" marginTop={1} width={width}>
			{shown.map((row, index) =>
				row.file ? (
					<Text key={`f${index}`} color={theme.muted} wrap="truncate">{`Writes ${tilde(row.file)}`}</Text>
				) : (
					<Text key={`l${index}`} wrap="truncate">
						<Text color={row.line!.value === null ? theme.warn : theme.accent}>{`  ${row.line!.setting}`}</Text>
						<Text>{row.line!.value === null ? ' removed (it would win over the gateway key)' : ` = ${row.line!.value}`}</Text>
					</Text>
				),
			)}
			{rows.length > shown.length ? <Text color={theme.muted}>{`  ↓ ${rows.length - shown.length} more`}</Text> : null}
		</Box>
	);
}
