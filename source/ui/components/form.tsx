/**
 * A form of fields over TextField (shell-like editing) and ink-select-input: one field has the focus (the only
 * one whose input listens), then the submit button. Tab / Shift+Tab move between fields, as do
 * Enter in a field (its own onSubmit / onSelect) and ↑/↓ in a text field; Enter on the button
 * submits, Esc cancels. The form handles only the keys its fields leave alone, so no key is
 * handled twice. Values are controlled: the caller keeps them and gets every change. Given a
 * height, fields that do not fit scroll (see form-window.ts).
 */
import {useState, type ReactNode} from 'react';
import {Box, Text} from 'ink';
import SelectInput from 'ink-select-input';
import {useKeypress} from '../hooks/use-keypress.js';
import {symbols, theme} from '../theme.js';
import {formWindow, listLimit} from './form-window.js';
import {MultiSelect, toggle} from './multi-select.js';
import {Label, Pointer, selectItems, type Option} from './select.js';
import {TextField} from './text-field.js';

type FieldBase = {readonly id: string; readonly label: string; readonly hint?: string};

export type Field =
	| (FieldBase & {readonly kind: 'text'; readonly placeholder?: string; readonly mask?: boolean})
	| (FieldBase & {readonly kind: 'choice'; readonly options: readonly Option[]})
	| (FieldBase & {readonly kind: 'multi'; readonly options: readonly Option[]; readonly none: string});

export type FormValues = Readonly<Record<string, string | readonly string[]>>;

export const textValue = (values: FormValues, id: string): string => {
	const value = values[id];
	return typeof value === 'string' ? value : '';
};

export const listValue = (values: FormValues, id: string): readonly string[] => {
	const value = values[id];
	return Array.isArray(value) ? value : [];
};

type Props = {
	readonly title: string;
	readonly fields: readonly Field[];
	readonly values: FormValues;
	readonly onChange: (values: FormValues, changed: string) => void;
	readonly onSubmit: () => void;
	readonly onCancel: () => void;
	readonly submitLabel: string;
	/** Whether the form has the keyboard (its pane is shown). */
	readonly active: boolean;
	readonly error?: string | null;
	readonly busy?: boolean;
	/** Lines the form may take; without it, every field is shown. */
	readonly height?: number;
	/** Columns the form may take; a longer text value scrolls. */
	readonly width?: number;
};

const labelWidth = 15;

/**
 * A text field inserts what one input holds, so a paste read in one chunk ("abc\r", without the
 * KeyPacer in front of Ink) would put the line break into the value. Such an input means: type
 * the text, press Enter, type the next line into the next field. Returns the field's own value
 * and the lines that follow each line break.
 */
export function splitLines(previous: string, next: string): {value: string; lines: string[]} {
	let start = 0;
	while (start < previous.length && previous[start] === next[start]) start++;
	let end = 0;
	while (end < Math.min(previous.length, next.length) - start && previous.at(-1 - end) === next.at(-1 - end)) end++;
	const [first = '', ...lines] = next.slice(start, next.length - end).split(/\r\n?|\n/);
	return {value: next.slice(0, start) + first + previous.slice(start), lines};
}

/** A text field's new value with line breaks: each break moves to the next field, which gets the line after it. */
function typeLines(fields: readonly Field[], values: FormValues, focus: number, next: string): {values: FormValues; moves: number} {
	const field = fields[focus]!;
	const {value, lines} = splitLines(textValue(values, field.id), next);
	let updated: FormValues = {...values, [field.id]: value};
	lines.forEach((line, offset) => {
		const target = fields[focus + offset + 1];
		if (target?.kind === 'text' && line) updated = {...updated, [target.id]: textValue(updated, target.id) + line};
	});
	return {values: updated, moves: lines.length};
}

export function Form(props: Props) {
	const {title, fields, values, error, busy, submitLabel, active, height} = props;
	const [focus, setFocus] = useState(0);
	const current = fields[focus];
	const move = (delta: number) => setFocus(Math.min(fields.length, Math.max(0, focus + delta)));
	const set = (id: string, value: string | readonly string[]) => props.onChange({...values, [id]: value}, id);
	const type = (field: Field, next: string) => {
		if (!/[\r\n]/.test(next)) return set(field.id, next);
		const pasted = typeLines(fields, values, focus, next);
		props.onChange(pasted.values, field.id);
		move(pasted.moves);
	};

	useKeypress(
		(_input, key) => {
			if (key.escape) return props.onCancel();
			if (key.tab) return move(key.shift ? -1 : 1);
			if (current === undefined) {
				if (key.upArrow) move(-1);
				else if (key.return && !busy) props.onSubmit();
			} else if (current.kind === 'text' && (key.upArrow || key.downArrow)) {
				move(key.upArrow ? -1 : 1);
			}
		},
		{isActive: active},
	);

	const row = {values, active, set, type, next: () => move(1), width: props.width === undefined ? undefined : props.width - labelWidth};
	const {start, end} = formWindow(fields, focus, height, Boolean(error));
	return (
		<Box flexDirection="column">
			<Text bold color={theme.accent}>
				{title}
			</Text>
			<MoreFields arrow="↑" count={start} />
			{fields.slice(start, end).map((field, offset) => (
				<FieldRow key={field.id} field={field} focused={start + offset === focus} {...row} />
			))}
			<MoreFields arrow="↓" count={fields.length - end} />
			<Box marginTop={1}>
				<Text inverse={current === undefined} color={current === undefined ? theme.accent : undefined}>
					{busy ? ' … working ' : ` ${submitLabel} `}
				</Text>
			</Box>
			{error ? <Text color={theme.error}>{`${symbols.error} ${error}`}</Text> : null}
			<Text color={theme.muted} wrap="truncate">
				{current?.hint ? `${current.hint} · ` : ''}
				{hintFor(current)}
			</Text>
		</Box>
	);
}

/** Fields out of sight above or below the window. */
function MoreFields({arrow, count}: {readonly arrow: string; readonly count: number}) {
	return count > 0 ? <Text color={theme.muted}>{`  ${arrow} ${count} more field${count === 1 ? '' : 's'}`}</Text> : null;
}

function hintFor(field: Field | undefined): string {
	if (field === undefined) return 'Enter submits · Shift+Tab back · Esc cancel';
	if (field.kind === 'multi') return 'Space toggles · Enter next · Esc cancel';
	if (field.kind === 'choice') return '↑/↓ choose · Enter next · Esc cancel';
	return 'Enter/Tab next · ↑ back · Ctrl+A/E/U/K/W, Alt+B/F edit · Esc cancel';
}

type RowProps = {
	readonly field: Field;
	readonly focused: boolean;
	readonly active: boolean;
	readonly values: FormValues;
	readonly set: (id: string, value: string | readonly string[]) => void;
	readonly type: (field: Field, next: string) => void;
	readonly next: () => void;
	readonly width: number | undefined;
};

function FieldRow({field, focused, active, values, set, type, next, width}: RowProps) {
	const label = (
		<Box width={labelWidth} flexShrink={0}>
			<Text color={focused ? theme.accent : theme.muted}>{`${focused ? symbols.pointer : ' '} ${field.label}`}</Text>
		</Box>
	);
	if (field.kind === 'text') {
		// A new field on focus: the cursor starts at the end, and the value may have changed meanwhile (a preset).
		return (
			<Box>
				{label}
				<TextField key={focused ? 'focused' : 'idle'} value={textValue(values, field.id)} focus={focused && active} placeholder={field.placeholder} mask={field.mask ? '*' : undefined} onChange={value => type(field, value)} onSubmit={next} width={width} />
			</Box>
		);
	}
	if (field.kind === 'choice') {
		const value = textValue(values, field.id);
		if (!focused) return <Box>{label}<Text>{field.options.find(option => option.value === value)?.label ?? value}</Text></Box>;
		const items = selectItems(field.options);
		const select = (item: {value: string}) => set(field.id, item.value);
		const initialIndex = Math.max(0, field.options.findIndex(option => option.value === value));
		return (
			<Box>
				{label}
				<Box flexDirection="column">
				<SelectInput
					items={items}
					initialIndex={initialIndex}
					isFocused={active}
					limit={listLimit}
					indicatorComponent={Pointer}
					itemComponent={Label}
					onHighlight={select}
					onSelect={item => {
						select(item);
						next();
					}}
				/>
				{field.options.length > listLimit ? <Text color={theme.muted}>{`  ${field.options.length - listLimit} more ↓`}</Text> : null}
				</Box>
			</Box>
		);
	}
	return <MultiRow field={field} label={label} focused={focused} active={active} chosen={listValue(values, field.id)} set={set} next={next} />;
}

type MultiProps = Pick<RowProps, 'focused' | 'active' | 'set' | 'next'> & {readonly field: Extract<Field, {kind: 'multi'}>; readonly label: ReactNode; readonly chosen: readonly string[]};

function MultiRow({field, label, focused, active, chosen, set, next}: MultiProps) {
	const summary = chosen.length === 0 ? field.none : field.options.filter(option => chosen.includes(option.value)).map(option => option.label).join(', ');
	return (
		<Box flexDirection="column" flexShrink={0}>
			<Box>
				{label}
				<Text color={chosen.length === 0 ? theme.muted : undefined} wrap="truncate">
					{summary}
				</Text>
			</Box>
			{focused ? (
				<Box marginLeft={labelWidth}>
					<MultiSelect options={field.options} chosen={chosen} focused={active} onToggle={value => set(field.id, toggle(chosen, value))} onDone={next} empty="(nothing to choose from yet)" />
				</Box>
			) : null}
		</Box>
	);
}
