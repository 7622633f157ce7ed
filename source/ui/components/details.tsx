/** Label/value lines for a details view (a key, a channel, a request). */
import {Box, Text} from 'ink';
import {theme} from '../theme.js';

export type Detail = readonly [label: string, value: string, color?: string];

export function Details({rows, labelWidth = 13}: {readonly rows: readonly Detail[]; readonly labelWidth?: number}) {
	return (
		<Box flexDirection="column">
			{rows.map(([label, value, color]) => (
				<Box key={label} flexShrink={0}>
					<Box width={labelWidth} flexShrink={0}>
						<Text color={theme.muted}>{label}</Text>
					</Box>
					<Text color={color}>{value}</Text>
				</Box>
			))}
		</Box>
	);
}
