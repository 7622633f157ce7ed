/**
 * Every key binding of the TUI, in one place: the key handlers resolve key presses to commands
 * here, and the footer and the help overlay are printed from the same tables, so what is shown is
 * what works.
 */
import type {Key} from './keys.js';

export type PaneId = 'keys' | 'channels' | 'endpoints' | 'usage';

export const panes: ReadonlyArray<{readonly id: PaneId; readonly title: string}> = [
	{id: 'keys', title: 'Keys'},
	{id: 'channels', title: 'Channels'},
	{id: 'endpoints', title: 'Endpoints'},
	{id: 'usage', title: 'Usage'},
];

/**
 * What has the keyboard besides the pane's own keys (the footer shows its keys): a form, a y/n
 * question, the log's filter line, or a request's details (its keys, and the global ones).
 */
export type Capture = 'form' | 'question' | 'filter' | 'request' | null;

export type GlobalCommand = 'quit' | 'help' | 'next-pane' | 'prev-pane' | `pane:${PaneId}`;
export type ListCommand = 'up' | 'down' | 'details' | 'back';
export type KeysCommand = ListCommand | 'new-key' | 'edit-key' | 'revoke-key' | 'rotate-key' | 'delete-key' | 'copy-key';
export type ChannelsCommand = ListCommand | 'new-channel' | 'edit-channel' | 'test-channel' | 'toggle-channel' | 'remove-channel';
export type EndpointsCommand = 'up' | 'down' | 'prev-key' | 'next-key' | 'copy-snippet' | 'apply-takeover' | 'undo-takeover';
export type UsageCommand = ListCommand | 'toggle-period' | 'live' | 'oldest' | 'page-up' | 'page-down' | 'filter';
export type ScrollCommand = 'line-up' | 'line-down' | 'page-up' | 'page-down' | 'top' | 'bottom';
/** A key's or channel's details scroll by page only: ↑/↓ move to the next key there. */
export type DetailsScrollCommand = Extract<ScrollCommand, 'page-up' | 'page-down'>;
export type RequestCommand = 'toggle-bodies' | 'back' | ScrollCommand;

export type Binding<C extends string> = {
	/** `up`, `down`, `left`, `right`, `enter`, `esc`, `tab`, `shift+tab`, `space`, `ctrl+c`, or one character. */
	readonly keys: readonly string[];
	readonly command: C;
	/** A word or two for the footer. */
	readonly label: string;
	/** A sentence for the help overlay. */
	readonly help: string;
	/** Shown in the footer (every binding is in the help overlay). */
	readonly footer?: boolean;
	/** How the footer writes its keys, where they stand for a pair (`↑↓`); else the first key's label. */
	readonly footerKeys?: string;
};

export const globalBindings: ReadonlyArray<Binding<GlobalCommand>> = [
	{keys: ['1'], command: 'pane:keys', label: 'keys', help: 'Keys pane'},
	{keys: ['2'], command: 'pane:channels', label: 'channels', help: 'Channels pane'},
	{keys: ['3'], command: 'pane:endpoints', label: 'endpoints', help: 'Endpoints pane'},
	{keys: ['4'], command: 'pane:usage', label: 'usage', help: 'Usage pane and live request log'},
	{keys: ['tab'], command: 'next-pane', label: 'next pane', help: 'Next pane'},
	{keys: ['shift+tab'], command: 'prev-pane', label: 'previous pane', help: 'Previous pane'},
	{keys: ['?'], command: 'help', label: 'help', help: 'Show or hide this help', footer: true},
	{keys: ['q', 'ctrl+c'], command: 'quit', label: 'quit', help: 'Quit (stops the gateway)', footer: true},
];

const listBindings: ReadonlyArray<Binding<ListCommand>> = [
	{keys: ['up', 'k'], command: 'up', label: 'up', help: 'Move up'},
	{keys: ['down', 'j'], command: 'down', label: 'down', help: 'Move down'},
	{keys: ['enter'], command: 'details', label: 'details', help: 'Show details', footer: true},
	{keys: ['esc'], command: 'back', label: 'back', help: 'Back to the list'},
];

/**
 * A key's or a channel's details where they do not fit (at 60×17; ↑/↓ move between keys there).
 * Not in the help, which is full at 80×24: the details' last line names them when they scroll.
 */
export const detailsScrollBindings: ReadonlyArray<Binding<DetailsScrollCommand>> = [
	{keys: ['pageup'], command: 'page-up', label: 'page', help: 'Up a page'},
	{keys: ['pagedown'], command: 'page-down', label: 'page', help: 'Down a page'},
];

export const keysBindings: ReadonlyArray<Binding<KeysCommand>> = [
	{keys: ['n'], command: 'new-key', label: 'new', help: 'Create a key (a form: name, description, models, channels, expiry, limits)', footer: true},
	{keys: ['e'], command: 'edit-key', label: 'edit', help: 'Edit the key: name, description, models, channels, expiry, limits and budget', footer: true},
	{keys: ['c'], command: 'copy-key', label: 'copy', help: "Copy the key's secret", footer: true},
	{keys: ['r'], command: 'revoke-key', label: 'revoke', help: 'Revoke the key (asks first): clients using it get 401', footer: true},
	{keys: ['R'], command: 'rotate-key', label: 'rotate', help: 'Rotate: a new secret, same settings (asks first)', footer: true},
	{keys: ['d'], command: 'delete-key', label: 'delete', help: 'Delete the key (asks first)', footer: true},
	...listBindings,
];

export const channelsBindings: ReadonlyArray<Binding<ChannelsCommand>> = [
	{keys: ['n'], command: 'new-channel', label: 'new', help: 'Add a channel (choose a provider preset)', footer: true},
	{keys: ['e'], command: 'edit-channel', label: 'edit', help: 'Edit the channel', footer: true},
	{keys: ['t'], command: 'test-channel', label: 'test', help: "Test: one call to the provider's model list (latency or its error)", footer: true},
	{keys: ['space'], command: 'toggle-channel', label: 'on/off', help: 'Enable or disable the channel', footer: true},
	{keys: ['d'], command: 'remove-channel', label: 'remove', help: 'Remove the channel (asks first)', footer: true},
	...listBindings,
];

export const endpointsBindings: ReadonlyArray<Binding<EndpointsCommand>> = [
	{keys: ['c'], command: 'copy-snippet', label: 'copy', help: 'Copy the selected snippet', footer: true},
	{keys: ['a'], command: 'apply-takeover', label: 'take over', help: 'Take over the selected tool (Claude Code, Codex, Gemini CLI): a form for its key and model, then a live check', footer: true},
	{keys: ['u'], command: 'undo-takeover', label: 'undo', help: "Put the selected tool's own settings back", footer: true},
	{keys: ['left', 'h'], command: 'prev-key', label: 'key', help: 'Previous key (the snippets use its secret; a takeover chooses its key in its form)'},
	{keys: ['right', 'l'], command: 'next-key', label: 'key', help: 'Next key'},
	{keys: ['up', 'k'], command: 'up', label: 'up', help: 'Previous snippet or tool'},
	{keys: ['down', 'j'], command: 'down', label: 'down', help: 'Next snippet or tool'},
];

// Short sentences: at 80×24 the help shows the log's keys and the details' side by side.
export const usageBindings: ReadonlyArray<Binding<UsageCommand>> = [
	{keys: ['t'], command: 'toggle-period', label: 'today/all', help: 'Totals of today / all time', footer: true},
	{keys: ['/'], command: 'filter', label: 'filter', help: 'Filter: key, model, 429, 5xx', footer: true},
	{keys: ['g', 'home'], command: 'live', label: 'live', help: 'Live: follow the newest', footer: true},
	{keys: ['G', 'end'], command: 'oldest', label: 'oldest', help: 'The oldest request kept'},
	{keys: ['pageup'], command: 'page-up', label: 'page up', help: 'A page of newer requests'},
	{keys: ['pagedown'], command: 'page-down', label: 'page down', help: 'A page of older requests'},
	{keys: ['up', 'k'], command: 'up', label: 'up', help: 'A newer request (top: live)'},
	{keys: ['down', 'j'], command: 'down', label: 'down', help: 'An older one (pauses the log)'},
	{keys: ['enter'], command: 'details', label: 'details', help: 'The whole request, bodies too', footer: true},
	{keys: ['esc'], command: 'back', label: 'back', help: 'Back from details; to live'},
];

/** Scrolling a view longer than its room: a request's headers and bodies, the help where it does not fit (see scroll.ts). */
export const scrollBindings: ReadonlyArray<Binding<ScrollCommand>> = [
	{keys: ['up', 'k'], command: 'line-up', label: 'scroll', help: 'Up a line', footer: true, footerKeys: '↑↓'},
	{keys: ['down', 'j'], command: 'line-down', label: 'scroll', help: 'Down a line'},
	{keys: ['pageup'], command: 'page-up', label: 'page', help: 'Up a page', footer: true, footerKeys: 'PgUp/PgDn'},
	{keys: ['pagedown', 'space'], command: 'page-down', label: 'page', help: 'Down a page'},
	{keys: ['home', 'g'], command: 'top', label: 'top', help: 'The first line'},
	{keys: ['end', 'G'], command: 'bottom', label: 'end', help: 'The last line'},
];

/** In a request's details (Enter on the log): body capture, and scrolling its headers and bodies. */
export const requestBindings: ReadonlyArray<Binding<RequestCommand>> = [
	{keys: ['b'], command: 'toggle-bodies', label: 'bodies on/off', help: 'Body capture on/off', footer: true},
	{keys: ['esc'], command: 'back', label: 'back', help: 'Back to the log', footer: true},
	...scrollBindings,
];

export const paneBindings: Readonly<Record<PaneId, ReadonlyArray<Binding<string>>>> = {
	keys: keysBindings,
	channels: channelsBindings,
	endpoints: endpointsBindings,
	usage: usageBindings,
};

const specialKeys: Readonly<Record<string, Key['name']>> = {up: 'up', down: 'down', left: 'left', right: 'right', enter: 'enter', esc: 'escape', home: 'home', end: 'end', pageup: 'pageup', pagedown: 'pagedown', space: 'space'};

function matches(spec: string, key: Key): boolean {
	if (spec === 'tab' || spec === 'shift+tab') return key.name === 'tab' && key.shift === (spec === 'shift+tab') && !key.meta;
	if (spec === 'ctrl+c') return key.ctrl && key.name === 'char' && key.text === 'c';
	const special = specialKeys[spec];
	if (special) return key.name === special && !key.ctrl && !key.meta;
	return key.name === 'char' && key.text === spec && !key.ctrl && !key.meta;
}

/** The command bound to this key press, if any. */
export function resolve<C extends string>(bindings: ReadonlyArray<Binding<C>>, key: Key): C | undefined {
	return bindings.find(binding => binding.keys.some(spec => matches(spec, key)))?.command;
}

const keyLabels: Readonly<Record<string, string>> = {up: '↑', down: '↓', left: '←', right: '→', enter: '↵', esc: 'Esc', tab: 'Tab', 'shift+tab': 'Shift+Tab', space: 'Space', 'ctrl+c': 'Ctrl+C', home: 'Home', end: 'End', pageup: 'PgUp', pagedown: 'PgDn'};

export function keyLabel(spec: string): string {
	return keyLabels[spec] ?? spec;
}

/** The sections of the help overlay: the pane's keys, and those of what it opens (a request's details). */
export function helpSections(pane: PaneId): Array<{readonly title: string; readonly bindings: ReadonlyArray<Binding<string>>}> {
	const title = panes.find(item => item.id === pane)?.title ?? pane;
	return [{title, bindings: paneBindings[pane]}, ...(pane === 'usage' ? [{title: "In a request's details", bindings: requestBindings}] : [])];
}

export type FooterItem = {readonly keys: string; readonly label: string};

const footerOf = (bindings: ReadonlyArray<Binding<string>>): FooterItem[] =>
	bindings.filter(binding => binding.footer).map(binding => ({keys: binding.footerKeys ?? keyLabel(binding.keys[0]!), label: binding.label}));

/** The footer of a pane (or of a request's details): its own keys, and the global ones. */
export function footerItems(pane: PaneId | 'request'): {own: FooterItem[]; global: FooterItem[]} {
	const global = [{keys: '1-4', label: 'panes'}, ...footerOf(globalBindings)];
	if (pane === 'request') return {own: footerOf(requestBindings), global};
	const navigation = pane === 'endpoints' ? [{keys: '←→', label: 'key'}, {keys: '↑↓', label: 'select'}] : [{keys: '↑↓', label: 'move'}];
	return {own: [...footerOf(paneBindings[pane]), ...navigation], global};
}

/** Columns a footer item takes: ` keys label `. */
export const itemWidth = (item: FooterItem): number => item.keys.length + item.label.length + 3;

/** The items that fit in `columns`, whole and in order: a cut one would read as another key. */
export function fitItems(items: readonly FooterItem[], columns: number): FooterItem[] {
	const shown: FooterItem[] = [];
	let used = 0;
	for (const item of items) {
		if (used + itemWidth(item) > columns) break;
		shown.push(item);
		used += itemWidth(item);
	}
	return shown;
}
