/** `?`: every key of the focused pane, then the global ones, printed from the command map. */
import {Box, Text} from 'ink';
import {globalBindings, keyLabel, paneBindings, panes, type Binding, type PaneId} from '../commands.js';
import {theme} from '../theme.js';
import {Panel} from './panel.js';

function Rows({bindings, width}: {readonly bindings: ReadonlyArray<Binding<string>>; readonly width?: number}) {
	return (
		<Box flexDirection="column" width={width}>
			{bindings.map(binding => (
				<Box key={binding.command}>
					<Box width={14} flexShrink={0}>
						<Text color={theme.accent}>{binding.keys.map(keyLabel).join(' ')}</Text>
					</Box>
					<Text wrap="truncate">{binding.help}</Text>
				</Box>
			))}
		</Box>
	);
}

/** The pane's keys; in two columns when one would not fit above the global keys. */
function Section({title, bindings, width, rows}: {readonly title: string; readonly bindings: ReadonlyArray<Binding<string>>; readonly width: number; readonly rows: number}) {
	const split = bindings.length > rows ? Math.ceil(bindings.length / 2) : bindings.length;
	return (
		<Box flexDirection="column" marginBottom={1}>
			<Text bold>{title}</Text>
			{split === bindings.length ? (
				<Rows bindings={bindings} />
			) : (
				<Box>
					<Rows bindings={bindings.slice(0, split)} width={Math.floor(width / 2)} />
					<Rows bindings={bindings.slice(split)} width={width - Math.floor(width / 2)} />
				</Box>
			)}
		</Box>
	);
}

export function HelpOverlay({pane, width, height}: {readonly pane: PaneId; readonly width: number; readonly height: number}) {
	const title = panes.find(item => item.id === pane)?.title ?? pane;
	return (
		<Panel title={`Keys of the ${title} pane`} subtitle="? or Esc closes" width={width} height={height}>
			{/* The panel's frame and title, this section's title and margin, and two lines of global keys. */}
			<Section title={title} bindings={paneBindings[pane]} width={width - 4} rows={height - 7} />
			<Text bold>Everywhere</Text>
			<Text>
				{globalBindings.map(binding => (
					<Text key={binding.command}>
						<Text color={theme.accent}>{binding.keys.map(keyLabel).join('/')}</Text>
						{` ${binding.help.toLowerCase()}   `}
					</Text>
				))}
			</Text>
		</Panel>
	);
}
