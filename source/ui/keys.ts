/**
 * Terminal input cut into key presses. A terminal in raw mode sends bytes: a character, a control
 * character (Ctrl+letter), `ESC` + a character (Alt+key), or an escape sequence — CSI (`ESC [`
 * params final: arrows, Home/End, PgUp/PgDn, Delete, Shift+Tab, with `;m` modifiers) or SS3
 * (`ESC O` letter). With bracketed paste on, a paste comes between `ESC [200~` and `ESC [201~`
 * and is one `paste` key.
 *
 * A lone Escape and the start of a sequence look alike: an `ESC` that ends a chunk waits up to
 * `escapeMs` for the rest. Only `[` or `O` continue it then (a sequence cut in two by a slow link);
 * anything else means Escape was pressed on its own and the next key is a key of its own (tmux or a
 * fast typist sending Esc, then `n`, is not Alt+N).
 * @see https://invisible-island.net/xterm/ctlseqs/ctlseqs.html
 */

export type KeyName =
	| 'up' | 'down' | 'left' | 'right' | 'home' | 'end' | 'pageup' | 'pagedown' | 'insert' | 'delete'
	| 'enter' | 'escape' | 'tab' | 'backspace' | 'space' | 'paste' | 'char' | 'function' | 'unknown';

export type Key = {
	readonly name: KeyName;
	/** The character for `char` (`a`, `R`, `é`; with Ctrl the letter, lower case), the text of a `paste`, `' '` for space; else empty. */
	readonly text: string;
	readonly ctrl: boolean;
	readonly meta: boolean;
	readonly shift: boolean;
	/** The bytes as they came. */
	readonly sequence: string;
};

/** What a key types into a text field, if anything: a character or a paste, never with Ctrl or Alt. */
export function typed(key: Key): string {
	if (key.ctrl || key.meta) return '';
	return key.name === 'char' || key.name === 'space' || key.name === 'paste' ? key.text : '';
}

const ESC = '\u001B';
const pasteStart = `${ESC}[200~`;
const pasteEnd = `${ESC}[201~`;

const key = (name: KeyName, sequence: string, extra: Partial<Key> = {}): Key => ({name, text: '', ctrl: false, meta: false, shift: false, sequence, ...extra});

/**
 * The two keys an Alt+key read from `ESC` and a key (not a CSI or SS3 sequence's `;3` modifier) may
 * have been typed as: Escape, then the key. tmux joins them (its `escape-time`, 500 ms by default,
 * waits after ESC and sends what follows with it), so Esc then `2` typed within half a second reach
 * the app as Alt+2. Null for any other key, and for `ESC` Enter: what Shift+Enter sends in the
 * terminals Claude Code's `/terminal-setup` configured (a form takes it as Enter, as before).
 */
export function escapeThen(alt: Key): readonly [Key, Key] | null {
	const {sequence} = alt;
	if (!alt.meta || alt.name === 'enter' || sequence.length < 2 || sequence[0] !== ESC || sequence[1] === '[' || sequence[1] === 'O') return null;
	return [key('escape', ESC), {...alt, meta: false, sequence: sequence.slice(1)}];
}

const csiLetters: Readonly<Record<string, KeyName>> = {A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', P: 'function', Q: 'function', R: 'function', S: 'function'};
const csiNumbers: Readonly<Record<string, KeyName>> = {1: 'home', 2: 'insert', 3: 'delete', 4: 'end', 5: 'pageup', 6: 'pagedown', 7: 'home', 8: 'end'};

/** `ESC [ … final`: the key, with the modifiers of a `;m` parameter (1 + shift·1 + alt·2 + ctrl·4). */
function csiKey(sequence: string, params: string, final: string): Key {
	const [first = '', modifier = '1'] = params.split(';');
	const bits = Math.max(0, Number(modifier) - 1);
	const modifiers = {shift: (bits & 1) !== 0, meta: (bits & 2) !== 0, ctrl: (bits & 4) !== 0};
	if (final === 'Z') return key('tab', sequence, {shift: true});
	if (final === '~') {
		const name = csiNumbers[first] ?? (Number(first) >= 11 ? 'function' : 'unknown');
		return key(name, sequence, modifiers);
	}
	if (final === 'u') return fromCodePoint(Number(first), sequence, modifiers);
	return key(csiLetters[final] ?? 'unknown', sequence, modifiers);
}

/** A kitty-protocol `CSI code ; mods u` key, or a control character read as a key. */
function fromCodePoint(code: number, sequence: string, modifiers: {shift: boolean; meta: boolean; ctrl: boolean}): Key {
	if (!Number.isInteger(code) || code < 0 || code > 0x10ffff) return key('unknown', sequence);
	const plain = single(String.fromCodePoint(code), sequence);
	return {...plain, ctrl: plain.ctrl || modifiers.ctrl, meta: plain.meta || modifiers.meta, shift: plain.shift || modifiers.shift};
}

/** One character that is not ESC. */
function single(char: string, sequence = char): Key {
	if (char === '\r' || char === '\n') return key('enter', sequence);
	if (char === '\t') return key('tab', sequence);
	if (char === '\u007F' || char === '\b') return key('backspace', sequence);
	if (char === ' ') return key('space', sequence, {text: ' '});
	if (char === '\u0000') return key('space', sequence, {ctrl: true});
	const code = char.codePointAt(0)!;
	if (code < 0x20) return key('char', sequence, {ctrl: true, text: code <= 0x1a ? String.fromCharCode(code + 96) : String.fromCharCode(code + 64)});
	return key('char', sequence, {text: char});
}

export type ParserOptions = {readonly escapeMs?: number};

/**
 * Feed it chunks as they are read; it calls `emit` with each key, in order. Keeps the tail of an
 * unfinished sequence (or paste) until the next chunk; `flush()` (called by its own timer after
 * `escapeMs`) gives up waiting.
 */
export class KeyParser {
	private pending = '';
	private paste: string | null = null;
	private timer: NodeJS.Timeout | undefined;
	private readonly escapeMs: number;

	constructor(private emit: (key: Key) => void, options: ParserOptions = {}) {
		this.escapeMs = options.escapeMs ?? 30;
	}

	/** Whether the end of the input so far is waiting for more (an ESC, an unfinished sequence or paste). */
	get waiting(): boolean {
		return this.pending !== '' || this.paste !== null;
	}

	push(chunk: string): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		let data = this.pending + chunk;
		// An ESC that ended the last chunk is Escape unless this chunk continues a sequence.
		if (this.paste === null && this.pending === ESC && chunk !== '' && chunk[0] !== '[' && chunk[0] !== 'O') {
			this.emit(key('escape', ESC));
			data = chunk;
		}
		this.pending = '';
		this.consume(data);
		if (this.pending !== '') {
			this.timer = setTimeout(() => this.flush(), this.escapeMs);
			this.timer.unref?.();
		}
	}

	/** Stop waiting: a lone ESC is Escape, an unfinished sequence is dropped, a paste ends. */
	flush(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		const rest = this.pending;
		this.pending = '';
		if (this.paste !== null) {
			const text = this.paste + rest;
			this.paste = null;
			if (text) this.emit(key('paste', text, {text}));
			return;
		}
		if (rest === ESC || rest === ESC + ESC) this.emit(key('escape', ESC));
		else if (rest.length === 2 && rest[0] === ESC) this.emit({...single(rest[1]!, rest), meta: true});
	}

	dispose(): void {
		clearTimeout(this.timer);
	}

	private consume(data: string): void {
		let at = 0;
		while (at < data.length) {
			if (this.paste !== null) {
				const end = data.indexOf(pasteEnd, at);
				if (end < 0) {
					// Keep what could be the start of the end marker for the next chunk.
					let keep = Math.min(pasteEnd.length - 1, data.length - at);
					while (keep > 0 && !data.endsWith(pasteEnd.slice(0, keep))) keep--;
					const cut = data.length - keep;
					this.paste += data.slice(at, cut);
					this.pending = data.slice(cut);
					return;
				}
				const text = this.paste + data.slice(at, end);
				this.paste = null;
				this.emit(key('paste', text, {text: text.replace(/\r\n?/g, '\n')}));
				at = end + pasteEnd.length;
				continue;
			}
			const used = this.next(data, at);
			if (used === 0) {
				this.pending = data.slice(at);
				return;
			}
			at += used;
		}
	}

	/** Emits the key at `at` and returns its length, or 0 when it is not complete yet. */
	private next(data: string, at: number): number {
		const char = String.fromCodePoint(data.codePointAt(at)!);
		if (char !== ESC) {
			this.emit(single(char));
			return char.length;
		}
		const second = data[at + 1];
		if (second === undefined) return 0;
		if (second === '[') return this.csi(data, at);
		if (second === 'O') {
			const third = data[at + 2];
			if (third === undefined) return 0;
			const sequence = data.slice(at, at + 3);
			this.emit(key(csiLetters[third] ?? (third === 'M' ? 'enter' : 'unknown'), sequence));
			return 3;
		}
		if (second === ESC) {
			// ESC before a sequence: Alt with that key (how some terminals send Alt+arrows).
			if (data[at + 2] === '[' || data[at + 2] === 'O') {
				const emit = this.emit;
				let inner: Key | undefined;
				this.emit = item => (inner = item);
				const used = this.next(data, at + 1);
				this.emit = emit;
				if (inner) this.emit({...inner, meta: true, sequence: ESC + inner.sequence});
				return used === 0 ? 0 : used + 1;
			}
			this.emit(key('escape', ESC));
			return 1;
		}
		const inner = String.fromCodePoint(data.codePointAt(at + 1)!);
		const plain = single(inner, ESC + inner);
		this.emit(plain.name === 'enter' || plain.name === 'char' || plain.name === 'backspace' || plain.name === 'space' || plain.name === 'tab' ? {...plain, meta: true} : plain);
		return 1 + inner.length;
	}

	private csi(data: string, at: number): number {
		const match = /^\u001B\[([\x30-\x3F]*)[\x20-\x2F]*([\x40-\x7E])/u.exec(data.slice(at, at + 32));
		if (!match) {
			// Unfinished (or garbage longer than any key): wait, unless it can no longer be a sequence.
			const body = data.slice(at + 2);
			if (/^[\x20-\x3F]*$/u.test(body) && body.length < 30) return 0;
			this.emit(key('unknown', data.slice(at, at + 2)));
			return 2;
		}
		const sequence = match[0];
		if (sequence === pasteStart) {
			this.paste = '';
			return sequence.length;
		}
		if (sequence === pasteEnd) return sequence.length;
		this.emit(csiKey(sequence, match[1]!, match[2]!));
		return sequence.length;
	}
}

/** Every key of `input`, as if it came in one chunk and nothing followed it (for tests and tools). */
export function parseKeys(input: string): Key[] {
	const keys: Key[] = [];
	const parser = new KeyParser(item => keys.push(item));
	parser.push(input);
	parser.flush();
	parser.dispose();
	return keys;
}
