/** A bordered box with a bold title on its first line: the frame of every pane and dialog. */
import type {ReactNode} from 'react';
import {Box, Text} from 'ink';
import {theme} from '../theme.js';

type Props = {
	readonly title: string;
	/** Shown after the title, dimmed (a count, the chosen period …). */
	readonly subtitle?: string;
	readonly width: number;
	readonly height?: number;
	readonly color?: string;
	readonly children: ReactNode;
};

export function Panel({title, subtitle, width, height, color, children}: Props) {
	return (
		<Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={color ?? theme.border} paddingX={1} overflow="hidden">
			<Text wrap="truncate">
				<Text bold color={color ?? theme.accent}>
					{title}
				</Text>
				{subtitle ? <Text color={theme.muted}>{`  ${subtitle}`}</Text> : null}
			</Text>
			{children}
		</Box>
	);
}
