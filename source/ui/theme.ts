/**
 * Colours and symbols in one place, so panes agree and a palette change is one edit. Only the
 * sixteen named terminal colours are used: they follow the user's terminal theme.
 */
export const theme = {
	accent: 'cyan',
	muted: 'gray',
	ok: 'green',
	warn: 'yellow',
	error: 'red',
	selectedBackground: 'blue',
	selectedText: 'white',
	border: 'gray',
} as const;

export const symbols = {
	ok: '✓',
	error: '✖',
	warn: '!',
	info: '·',
	dot: '●',
	arrow: '→',
	pointer: '›',
	checked: '[x]',
	unchecked: '[ ]',
} as const;

export type StatusKind = 'info' | 'ok' | 'warn' | 'error';

/** The result of the last action, shown in the status bar. */
export type StatusMessage = {readonly kind: StatusKind; readonly text: string};

export const statusColors: Readonly<Record<StatusKind, string>> = {info: theme.muted, ok: theme.ok, warn: theme.warn, error: theme.error};
export const statusSymbols: Readonly<Record<StatusKind, string>> = {info: symbols.info, ok: symbols.ok, warn: symbols.warn, error: symbols.error};
