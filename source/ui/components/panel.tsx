/** A bordered box with a bold title on its first line: the frame of every pane and dialog. What does not fit is cut at the bottom. */
import type {ReactNode} from 'react';
import {Box, Text} from 'ink';
import {fitParts} from '../text.js';
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
	// The frame and padding take four columns, the gap after the title two; the subtitle's last parts give way whole.
	const shown = subtitle ? fitParts(subtitle, width - 4 - title.length - 2) : '';
	return (
		<Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={color ?? theme.border} paddingX={1} overflowY="hidden">
			{/* Content taller than the frame is cut at the bottom, line by line. Without this box Yoga shrank the
			    lines to fit, and a line shrunk to no height was still drawn — over the next one. */}
			<Box flexDirection="column" flexShrink={0}>
				<Text wrap="truncate">
					<Text bold color={color ?? theme.accent}>
						{title}
					</Text>
					{shown ? <Text color={theme.muted}>{`  ${shown}`}</Text> : null}
				</Text>
				{children}
			</Box>
		</Box>
	);
}
