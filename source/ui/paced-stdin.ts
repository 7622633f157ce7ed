/**
 * The terminal's input as Ink reads it, through a KeyPacer: Ink gets one key per 'readable'
 * event. Ink uses only isTTY, setRawMode, setEncoding, ref, unref, read() and 'readable', which
 * are passed on to the real stdin or served from the pacer.
 */
import {EventEmitter} from 'node:events';
import {KeyPacer} from './key-pacer.js';

/** What is needed of the terminal's input (process.stdin). */
export type KeySource = {
	readonly isTTY?: boolean;
	setRawMode(mode: boolean): unknown;
	setEncoding(encoding: BufferEncoding): unknown;
	read(): unknown;
	on(event: 'readable', listener: () => void): unknown;
	off(event: 'readable', listener: () => void): unknown;
	ref(): unknown;
	unref(): unknown;
};

class PacedStdin extends EventEmitter {
	readonly isTTY: boolean;
	readonly pacer: KeyPacer;
	private current: string | null = null;

	constructor(private readonly source: KeySource) {
		super();
		this.isTTY = source.isTTY === true;
		this.pacer = new KeyPacer(key => {
			this.current = key;
			this.emit('readable');
		});
	}

	setEncoding(encoding: BufferEncoding): this {
		this.source.setEncoding(encoding);
		return this;
	}

	setRawMode(mode: boolean): this {
		this.source.setRawMode(mode);
		if (mode) this.source.on('readable', this.pull);
		else {
			this.source.off('readable', this.pull);
			this.pacer.clear();
		}
		return this;
	}

	ref(): this {
		this.source.ref();
		return this;
	}

	unref(): this {
		this.source.unref();
		return this;
	}

	read(): string | null {
		const key = this.current;
		this.current = null;
		return key;
	}

	private readonly pull = () => {
		for (let chunk = this.source.read(); chunk !== null; chunk = this.source.read()) this.pacer.push(String(chunk));
	};
}

/** The stdin to give Ink's render(), and its pacer (for <KeysSettled>). */
export function pacedStdin(source: KeySource): {stdin: NodeJS.ReadStream; pacer: KeyPacer} {
	const stdin = new PacedStdin(source);
	// Ink's type asks for a whole ReadStream; it uses only what PacedStdin has (see above).
	return {stdin: stdin as unknown as NodeJS.ReadStream, pacer: stdin.pacer};
}
