/**
 * A form of fields over TextField (shell-like editing) and Select: one field has the focus (the only
 * one listening, on the `field` layer), then the submit button. Tab / Shift+Tab move between
 * fields, as do Enter in a field (its own onSubmit / onSelect) and ↑/↓ in a text field; Enter on
 * the button submits, Esc cancels. The form listens on the `form` layer below its fields and
 * keeps every key it is given (a form's keys never reach the pane or the global keys). An error
 * that starts with a field's label ("Name: …") moves the focus to that field.
 *
 * The form keeps its values (in a key state: each key sees the one before) and reports every
 * change; `derive` lets the caller adjust the values after a change (a preset fills other
 * fields), and `fields` may depend on the values. Given a height, fields that do not fit scroll
 * (see form-window.ts).
 */
import {useEffect, type ReactNode} from 'react';
import {Box, Text} from 'ink';
import {useKeypress, useKeyState, type KeyState} from '../hooks/use-keypress.js';
import {fitParts} from '../text.js';
import {symbols, theme} from '../theme.js';
import {formWindow, listLimit} from './form-window.js';
import {MultiSelect, toggle} from './multi-select.js';
import {Select, type Option} from './select.js';
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
	readonly fields: readonly Field[] | ((values: FormValues) => readonly Field[]);
	readonly initial: FormValues;
	/** The values after a change to `changed` (by default `next` as it is). */
	readonly derive?: (next: FormValues, previous: FormValues, changed: string) => FormValues;
	readonly onChange?: (values: FormValues, changed: string) => void;
	readonly onSubmit: (values: FormValues) => void;
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
	/** Told which field has the focus (the fields' length: the button), for a caller sizing what is below. */
	readonly onFocus?: (index: number) => void;
};

const labelWidth = 15;

type Control = {
	readonly values: KeyState<FormValues>;
	readonly focus: KeyState<number>;
	readonly fieldsOf: (values: FormValues) => readonly Field[];
	readonly set: (id: string, value: string | readonly string[]) => void;
	readonly move: (delta: number) => void;
};

/** The form's state and what changes it: the same functions for its own keys and its fields'. */
function useFormControl(props: Props): Control {
	const values = useKeyState<FormValues>(props.initial);
	// Which field listens: a change holds the keys after it until that field is on screen.
	const focus = useKeyState(0, {moves: true});
	const fieldsOf = (current: FormValues) => (typeof props.fields === 'function' ? props.fields(current) : props.fields);
	const set = (id: string, value: string | readonly string[]) => {
		const previous = values.current;
		const next = {...previous, [id]: value};
		values.set(props.derive ? props.derive(next, previous, id) : next);
		props.onChange?.(values.current, id);
	};
	const move = (delta: number) => {
		focus.set(current => Math.min(fieldsOf(values.current).length, Math.max(0, current + delta)));
		props.onFocus?.(focus.current);
	};
	return {values, focus, fieldsOf, set, move};
}

export function Form(props: Props) {
	const {title, error, busy, submitLabel, active, height} = props;
	const control = useFormControl(props);
	const {values, focus, fieldsOf, move} = control;
	// A submit holds the keys after it until the caller has rendered `busy`: Enter twice submits once.
	const submits = useKeyState(0, {moves: true});
	const fields = fieldsOf(values.current);
	const at = Math.min(focus.current, fields.length);
	const current = fields[at];

	// A refusal that names a field ("Requests/min: …", the form's wording of a service's error) takes the
	// focus there: the fix is typed at once, not after Shift+Tab past every field between.
	useEffect(() => {
		if (!error) return;
		const index = fieldsOf(values.current).findIndex(field => error.startsWith(`${field.label}:`));
		if (index === -1 || index === focus.current) return;
		focus.set(index);
		props.onFocus?.(index);
	}, [error]);

	const submit = () => {
		if (busy) return;
		submits.set(count => count + 1);
		props.onSubmit(values.current);
	};
	// What the focused field left: Esc, Tab, Enter on the button (or on a list with nothing to choose), ↑/↓ in a text field.
	useKeypress(
		key => {
			const field = fieldsOf(values.current)[focus.current];
			const vertical = key.name === 'up' || key.name === 'down';
			if (key.name === 'escape') props.onCancel();
			else if (key.name === 'tab') move(key.shift ? -1 : 1);
			else if (key.name === 'enter' && field === undefined) submit();
			else if (key.name === 'enter') move(1);
			else if (vertical && (field === undefined || field.kind === 'text')) move(key.name === 'up' ? -1 : 1);
			return true;
		},
		{layer: 'form', isActive: active},
	);

	const row = {values: values.current, active, control, width: props.width === undefined ? undefined : props.width - labelWidth};
	const {start, end} = formWindow(fields, at, height, Boolean(error));
	const hint = current?.hint ? `${current.hint} · ${hintFor(current)}` : hintFor(current);
	return (
		<Box flexDirection="column">
			<Text bold color={theme.accent}>
				{title}
			</Text>
			<MoreFields arrow="↑" count={start} />
			{fields.slice(start, end).map((field, offset) => (
				<FieldRow key={field.id} field={field} focused={start + offset === at} {...row} />
			))}
			<MoreFields arrow="↓" count={fields.length - end} />
			<Box marginTop={1}>
				<Text inverse={current === undefined} color={current === undefined ? theme.accent : undefined}>
					{busy ? ' … working ' : ` ${submitLabel} `}
				</Text>
			</Box>
			{error ? <Text color={theme.error}>{`${symbols.error} ${error}`}</Text> : null}
			{/* The field's own hint first, then its keys — those that fit whole (the footer lists them all). */}
			<Text color={theme.muted} wrap="truncate">
				{props.width === undefined ? hint : fitParts(hint, props.width)}
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
	// The editing keys (Ctrl+A/E/U/K/W …) are in the footer while a form is open.
	return 'Enter/Tab next · ↑ back · Esc cancel';
}

type RowProps = {
	readonly field: Field;
	readonly focused: boolean;
	readonly active: boolean;
	readonly values: FormValues;
	readonly control: Control;
	readonly width: number | undefined;
};

function FieldRow({field, focused, active, values, control, width}: RowProps) {
	const label = (
		<Box width={labelWidth} flexShrink={0}>
			<Text color={focused ? theme.accent : theme.muted}>{`${focused ? symbols.pointer : ' '} ${field.label}`}</Text>
		</Box>
	);
	const next = () => control.move(1);
	if (field.kind === 'text') {
		// A new field on focus: the cursor starts at the end, and the value may have changed meanwhile (a preset).
		return (
			<Box>
				{label}
				<TextField key={focused ? 'focused' : 'idle'} value={textValue(values, field.id)} focus={focused && active} placeholder={field.placeholder} mask={field.mask ? '*' : undefined} onChange={value => control.set(field.id, value)} onSubmit={next} width={width} />
			</Box>
		);
	}
	if (field.kind === 'choice') {
		const value = textValue(values, field.id);
		if (!focused) return <Box>{label}<Text>{field.options.find(option => option.value === value)?.label ?? value}</Text></Box>;
		const initialIndex = Math.max(0, field.options.findIndex(option => option.value === value));
		return (
			<Box>
				{label}
				<Select
					options={field.options}
					initialIndex={initialIndex}
					focused={active}
					limit={listLimit}
					onHighlight={chosen => control.set(field.id, chosen)}
					onSelect={chosen => {
						control.set(field.id, chosen);
						next();
					}}
				/>
			</Box>
		);
	}
	// Toggles read the newest values: several Space and ↓ can come before the next render.
	const onToggle = (value: string) => control.set(field.id, toggle(listValue(control.values.current, field.id), value));
	return <MultiRow field={field} label={label} focused={focused} active={active} chosen={listValue(values, field.id)} onToggle={onToggle} next={next} />;
}

type MultiProps = Pick<RowProps, 'focused' | 'active'> & {readonly field: Extract<Field, {kind: 'multi'}>; readonly label: ReactNode; readonly chosen: readonly string[]; readonly onToggle: (value: string) => void; readonly next: () => void};

function MultiRow({field, label, focused, active, chosen, onToggle, next}: MultiProps) {
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
					<MultiSelect options={field.options} chosen={chosen} focused={active} onToggle={onToggle} onDone={next} empty="(nothing to choose from yet)" limit={listLimit} />
				</Box>
			) : null}
		</Box>
	);
}
