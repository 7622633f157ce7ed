/** `?`: every key of the focused pane, then the global ones, printed from the command map. */
import {Box, Text} from 'ink';
import {globalBindings, keyLabel, paneBindings, panes, type Binding, type PaneId} from '../commands.js';
import {theme} from '../theme.js';
import {Panel} from './panel.js';

function Section({title, bindings}: {readonly title: string; readonly bindings: ReadonlyArray<Binding<string>>}) {
	return (
		<Box flexDirection="column" marginBottom={1}>
			<Text bold>{title}</Text>
			{bindings.map(binding => (
				<Box key={binding.command}>
					<Box width={16} flexShrink={0}>
						<Text color={theme.accent}>{binding.keys.map(keyLabel).join(' ')}</Text>
					</Box>
					<Text wrap="truncate">{binding.help}</Text>
				</Box>
			))}
		</Box>
	);
}

export function HelpOverlay({pane, width, height}: {readonly pane: PaneId; readonly width: number; readonly height: number}) {
	const title = panes.find(item => item.id === pane)?.title ?? pane;
	return (
		<Panel title={`Keys of the ${title} pane`} subtitle="? or Esc closes" width={width} height={height}>
			<Section title={title} bindings={paneBindings[pane]} />
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
