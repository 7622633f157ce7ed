/**
 * Split a streamed JSON array (`[{…},{…}]`, Gemini's stream without alt=sse) into its element texts
 * as each element completes, fed bytes as they arrive.
 */
import {Utf8Chunks} from '../base/utf8-chunks.js';

export class JsonArraySplitter {
	private readonly decoder = new Utf8Chunks();
	private depth = 0;
	private inString = false;
	private escaped = false;
	private current = '';

	constructor(private readonly onElement: (text: string) => void) {}

	/** Bytes, or text decoded from whole characters. */
	push(chunk: Uint8Array | string): void {
		this.split(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk));
	}

	/** The bytes have run out. */
	end(): void {
		this.split(this.decoder.end());
	}

	private split(text: string): void {
		for (const char of text) {
			if (this.depth > 1 || (this.depth === 1 && char !== ',' && char !== ']' && !/\s/.test(char)) || this.inString) this.current += char;
			if (this.inString) {
				if (this.escaped) this.escaped = false;
				else if (char === '\\') this.escaped = true;
				else if (char === '"') this.inString = false;
				continue;
			}
			if (char === '"') this.inString = true;
			else if (char === '{' || char === '[') this.depth++;
			else if (char === '}' || char === ']') {
				this.depth--;
				if (this.depth === 1 && this.current) {
					const element = this.current;
					this.current = '';
					this.onElement(element);
				}
			}
		}
	}
}
