/**
 * A yes/no question. While it is shown, the pane listens on the `confirm` layer and takes every key: `y` confirms, anything else
 * (`n`, Esc, …) cancels, so a stray key never destroys anything.
 */
import {Box, Text} from 'ink';
import type {Key} from '../keys.js';
import {theme} from '../theme.js';

export const isYes = (key: Key) => key.name === 'char' && !key.ctrl && !key.meta && (key.text === 'y' || key.text === 'Y');

export function Confirm({question, consequence}: {readonly question: string; readonly consequence?: string}) {
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={theme.warn} paddingX={1} flexShrink={0}>
			<Text bold color={theme.warn}>
				{question}
			</Text>
			{consequence ? <Text>{consequence}</Text> : null}
			<Text color={theme.muted}>y yes · any other key: no</Text>
		</Box>
	);
}
