/**
 * `?`: every key of the focused pane (and of what it opens: a request's details), then the global
 * ones, printed from the command map. The sections stand one above the other where they fit, side
 * by side where they do not; a sentence wraps where its column is narrow. Where even two columns do
 * not fit (a small terminal), it is one column that scrolls with ↑/↓, PgUp/PgDn and Home/End: no
 * sentence is ever cut. Above the keys, the status bar's messages whole (the bar cuts them at two
 * lines): the newest, then the warnings and errors before it.
 */
import {Box, Text} from 'ink';
import {globalBindings, helpSections, keyLabel, panes, resolve, scrollBindings, type Binding, type PaneId} from '../commands.js';
import {useKeypress, useKeyState} from '../hooks/use-keypress.js';
import {scrolled, scrollPosition} from '../scroll.js';
import {clock, packLines, wrapLines} from '../text.js';
import {statusColors, theme} from '../theme.js';
import type {ShownMessage} from '../hooks/use-status.js';
import {Panel} from './panel.js';

type Section = ReturnType<typeof helpSections>[number];

/** One line of the help: a section's title, a key's sentence (or its continuation), a blank. */
export type HelpLine =
	| {readonly kind: 'title'; readonly text: string}
	| {readonly kind: 'key'; readonly keys: string; readonly keyWidth: number; readonly text: string; readonly color?: string}
	| {readonly kind: 'blank'};

/** The messages' lines: a title, then each message wrapped beside the time it was shown, and a blank line; none without messages. */
export function messageHelpLines(messages: readonly ShownMessage[], width: number): HelpLine[] {
	if (messages.length === 0) return [];
	const lines: HelpLine[] = [{kind: 'title', text: 'Messages, newest first'}];
	const timeWidth = 10;
	for (const {at, message} of messages) {
		const time = clock(new Date(at).toISOString());
		wrapLines(message.text, width - timeWidth).forEach((text, index) => lines.push({kind: 'key', keys: index === 0 ? time : '', keyWidth: timeWidth, text, color: statusColors[message.kind]}));
	}
	lines.push({kind: 'blank'});
	return lines;
}

const keysText = (binding: Binding<string>) => binding.keys.map(keyLabel).join(' ');

/** The key column: as wide as the longest keys of the section, and a gap. */
const keyWidth = (section: Section) => Math.max(...section.bindings.map(binding => keysText(binding).length)) + 2;

/** A section's lines in `width` columns: its title, each sentence wrapped beside its keys, and a blank line. */
export function sectionLines(section: Section, width: number): HelpLine[] {
	const keys = keyWidth(section);
	const lines: HelpLine[] = [{kind: 'title', text: section.title}];
	for (const binding of section.bindings) {
		wrapLines(binding.help, width - keys).forEach((text, index) => lines.push({kind: 'key', keys: index === 0 ? keysText(binding) : '', keyWidth: keys, text}));
	}
	lines.push({kind: 'blank'});
	return lines;
}

const columnLines = (sections: readonly Section[], width: number) => sections.flatMap(section => sectionLines(section, width));

/** The global keys, each with its label: `1 keys`, `2 channels` … `q/Ctrl+C quit`. */
const everywhere = globalBindings.map(binding => `${binding.keys.map(keyLabel).join('/')} ${binding.label}`);

/** The global keys' section: its title, then the keys three spaces apart, a line broken only between two (or inside one wider than the line). */
export function everywhereLines(width: number): HelpLine[] {
	const items = everywhere.flatMap(item => (item.length <= width ? [item] : wrapLines(item, width)));
	return [{kind: 'title', text: 'Everywhere'}, ...packLines(items, width, '   ').map((text): HelpLine => ({kind: 'key', keys: '', keyWidth: 0, text}))];
}

/** Two columns: the pane's keys on the left, what it opens on the right; a lone section halved. */
export function twoColumns(sections: readonly Section[]): [Section[], Section[]] {
	if (sections.length > 1) return [sections.slice(0, 1), sections.slice(1)];
	const only = sections[0] ?? {title: '', bindings: []};
	const half = Math.ceil(only.bindings.length / 2);
	return [[{title: only.title, bindings: only.bindings.slice(0, half)}], [{title: ' ', bindings: only.bindings.slice(half)}]];
}

/**
 * What the help shows in `width` columns and `rows` lines: the pane's sections in one column, with
 * the global keys below, when that fits; else in two; else everything in one column that scrolls
 * (`scroll`: the lines, and how many show at once — a line is kept for saying where you are).
 */
export type HelpLayout =
	| {readonly kind: 'columns'; readonly messages: readonly HelpLine[]; readonly columns: readonly (readonly HelpLine[])[]; readonly columnWidth: number; readonly global: readonly HelpLine[]}
	| {readonly kind: 'scroll'; readonly lines: readonly HelpLine[]; readonly view: number};

export function helpLayout(sections: readonly Section[], width: number, rows: number, messages: readonly ShownMessage[] = []): HelpLayout {
	const global = everywhereLines(width);
	const told = messageHelpLines(messages, width);
	const room = rows - global.length - told.length;
	const one = columnLines(sections, width);
	if (one.length <= room) return {kind: 'columns', messages: told, columns: [one], columnWidth: width, global};
	const half = Math.floor(width / 2) - 1;
	const split = twoColumns(sections).map(column => columnLines(column, half));
	if (Math.max(...split.map(column => column.length)) <= room) return {kind: 'columns', messages: told, columns: split, columnWidth: half, global};
	return {kind: 'scroll', lines: [...told, ...one, ...global], view: Math.max(1, rows - 1)};
}

function LineView({line, width}: {readonly line: HelpLine; readonly width: number}) {
	switch (line.kind) {
		case 'title':
			return <Text bold>{line.text || ' '}</Text>;
		case 'blank':
			return <Text> </Text>;
		case 'key':
			return (
				<Box width={width}>
					{line.keyWidth > 0 ? (
						<Box width={line.keyWidth} flexShrink={0}>
							<Text color={theme.accent}>{line.keys}</Text>
						</Box>
					) : null}
					<Text wrap="truncate" color={line.color}>
						{line.text}
					</Text>
				</Box>
			);
	}
}

function Lines({lines, width}: {readonly lines: readonly HelpLine[]; readonly width: number}) {
	return (
		<Box flexDirection="column" width={width} flexShrink={0}>
			{lines.map((line, index) => (
				<LineView key={index} line={line} width={width} />
			))}
		</Box>
	);
}

export function HelpOverlay({pane, width, height, messages = []}: {readonly pane: PaneId; readonly width: number; readonly height: number; readonly messages?: readonly ShownMessage[]}) {
	const title = panes.find(item => item.id === pane)?.title ?? pane;
	const inner = width - 4;
	// The panel's frame and its title line.
	const layout = helpLayout(helpSections(pane), inner, height - 3, messages);
	const scroll = useKeyState(0);
	const scrolling = layout.kind === 'scroll' ? layout : null;
	const last = scrolling ? Math.max(0, scrolling.lines.length - scrolling.view) : 0;
	useKeypress(
		key => {
			const command = scrolling ? resolve(scrollBindings, key) : undefined;
			if (!scrolling || command === undefined) return false;
			scroll.set(current => scrolled(current, command, scrolling.view, last));
			return true;
		},
		{layer: 'help'},
	);
	const top = Math.min(scroll.current, last);
	return (
		<Panel title={`Keys of the ${title} pane`} subtitle="? or Esc closes" width={width} height={height}>
			{layout.kind === 'columns' ? (
				<>
					<Lines lines={layout.messages} width={inner} />
					<Box>
						{layout.columns.map((column, index) => (
							<Box key={index} marginRight={index === 0 && layout.columns.length === 2 ? 2 : 0}>
								<Lines lines={column} width={layout.columnWidth} />
							</Box>
						))}
					</Box>
					<Lines lines={layout.global} width={inner} />
				</>
			) : (
				<>
					<Lines lines={layout.lines.slice(top, top + layout.view)} width={inner} />
					<Text color={theme.muted} wrap="truncate">{scrollPosition(top, layout.view, layout.lines.length)}</Text>
				</>
			)}
		</Panel>
	);
}
