/**
 * `?`: every key of the focused pane (and of what it opens: a request's details), then the global
 * ones, printed from the command map. The sections stand one above the other where they fit, side
 * by side where they do not; a sentence wraps where its column is narrow, and is cut only when even
 * that would not fit the terminal.
 */
import {Box, Text} from 'ink';
import {globalBindings, helpSections, keyLabel, panes, type Binding, type PaneId} from '../commands.js';
import {theme} from '../theme.js';
import {Panel} from './panel.js';

type Section = ReturnType<typeof helpSections>[number];

const keysText = (binding: Binding<string>) => binding.keys.map(keyLabel).join(' ');

/** The key column: as wide as the longest keys of the section, and a gap. */
const keyWidth = (section: Section) => Math.max(...section.bindings.map(binding => keysText(binding).length)) + 2;

/** Lines a section takes in `width` columns: its title, each sentence (wrapped when `wrap`), and a blank line. */
export function sectionLines(section: Section, width: number, wrap: boolean): number {
	const room = Math.max(1, width - keyWidth(section));
	return 2 + section.bindings.reduce((sum, binding) => sum + (wrap ? Math.ceil(binding.help.length / room) : 1), 0);
}

/** The global keys on one wrapped paragraph: `1 keys  2 channels … q/Ctrl+C quit`. */
const everywhere = globalBindings.map(binding => `${binding.keys.map(keyLabel).join('/')} ${binding.label}`).join('   ');

export type HelpLayout = {readonly columns: 1 | 2; readonly wrap: boolean};

/** Two columns: the pane's keys on the left, what it opens on the right; a lone section halved. */
export function twoColumns(sections: readonly Section[]): [Section[], Section[]] {
	if (sections.length > 1) return [sections.slice(0, 1), sections.slice(1)];
	const only = sections[0] ?? {title: '', bindings: []};
	const half = Math.ceil(only.bindings.length / 2);
	return [[{title: only.title, bindings: only.bindings.slice(0, half)}], [{title: ' ', bindings: only.bindings.slice(half)}]];
}

/** One column when everything fits, then two; sentences wrap when that still fits. */
export function helpLayout(sections: readonly Section[], width: number, rows: number): HelpLayout {
	const linesOf = (column: readonly Section[], columnWidth: number, wrap: boolean) => column.reduce((sum, section) => sum + sectionLines(section, columnWidth, wrap), 0);
	const half = Math.floor(width / 2) - 1;
	const split = (wrap: boolean) => Math.max(...twoColumns(sections).map(column => linesOf(column, half, wrap)));
	if (linesOf(sections, width, true) <= rows) return {columns: 1, wrap: true};
	if (split(true) <= rows) return {columns: 2, wrap: true};
	if (linesOf(sections, width, false) <= rows) return {columns: 1, wrap: false};
	return {columns: 2, wrap: false};
}

function SectionView({section, width, wrap}: {readonly section: Section; readonly width: number; readonly wrap: boolean}) {
	const keys = keyWidth(section);
	return (
		<Box flexDirection="column" width={width} marginBottom={1} flexShrink={0}>
			<Text bold>{section.title}</Text>
			{section.bindings.map(binding => (
				<Box key={binding.command}>
					<Box width={keys} flexShrink={0}>
						<Text color={theme.accent}>{keysText(binding)}</Text>
					</Box>
					<Box width={width - keys}>
						<Text wrap={wrap ? 'wrap' : 'truncate'}>{binding.help}</Text>
					</Box>
				</Box>
			))}
		</Box>
	);
}

export function HelpOverlay({pane, width, height}: {readonly pane: PaneId; readonly width: number; readonly height: number}) {
	const title = panes.find(item => item.id === pane)?.title ?? pane;
	const inner = width - 4;
	const sections = helpSections(pane);
	// The panel's frame and title, and the global keys (their title and their wrapped line).
	const globalLines = 1 + Math.ceil(everywhere.length / inner);
	const layout = helpLayout(sections, inner, height - 3 - globalLines);
	const half = Math.floor(inner / 2) - 1;
	const columns = layout.columns === 1 ? [sections] : twoColumns(sections);
	return (
		<Panel title={`Keys of the ${title} pane`} subtitle="? or Esc closes" width={width} height={height}>
			<Box>
				{columns.map((column, index) => (
					<Box key={index} flexDirection="column" width={layout.columns === 1 ? inner : half} marginRight={index === 0 && layout.columns === 2 ? 2 : 0}>
						{column.map(section => (
							<SectionView key={section.title} section={section} width={layout.columns === 1 ? inner : half} wrap={layout.wrap} />
						))}
					</Box>
				))}
			</Box>
			<Text bold>Everywhere</Text>
			<Text>{everywhere}</Text>
		</Panel>
	);
}
