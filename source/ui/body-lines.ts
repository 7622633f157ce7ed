/**
 * A request's headers and bodies as the lines of a scrollable view: JSON that was kept whole is
 * indented, long lines are wrapped at the view's width, and a body cut at the capture's cap ends
 * with how many bytes are left out.
 */
import type {CapturedBody, RequestBodies} from '../base/events.js';

export type BodyLine = {readonly text: string; readonly kind: 'heading' | 'text' | 'note'};

export function sizeText(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	const kib = bytes / 1024;
	return kib < 1024 ? `${kib < 10 ? kib.toFixed(1) : Math.round(kib)} KiB` : `${(kib / 1024).toFixed(1)} MiB`;
}

/** Indented when it is whole JSON; otherwise as it was sent. */
function readable(body: CapturedBody): string {
	if (body.omittedBytes === 0 && /^\s*[[{]/.test(body.text)) {
		try {
			return JSON.stringify(JSON.parse(body.text), null, 2);
		} catch {
			// Not JSON after all: as it is.
		}
	}
	return body.text;
}

function wrap(text: string, width: number): string[] {
	const lines: string[] = [];
	for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
		const chars = [...line.replaceAll('\t', '  ')];
		if (chars.length === 0) lines.push('');
		for (let start = 0; start < chars.length; start += width) lines.push(chars.slice(start, start + width).join(''));
	}
	return lines;
}

function section(title: string, body: CapturedBody | null, empty: string, width: number): BodyLine[] {
	if (!body) return [{text: `${title}: ${empty}`, kind: 'heading'}];
	const heading: BodyLine = {text: `${title} (${sizeText(body.bytes)}${body.contentType ? `, ${body.contentType}` : ''})`, kind: 'heading'};
	const lines = wrap(readable(body), width).map((text): BodyLine => ({text, kind: 'text'}));
	// Trailing empty lines (an SSE stream's last blank line) say nothing.
	while (lines.at(-1)?.text === '') lines.pop();
	const more: BodyLine[] = body.omittedBytes > 0 ? [{text: `… ${body.omittedBytes.toLocaleString('en-US')} more bytes (not kept)`, kind: 'note'}] : [];
	return [heading, ...lines, ...more];
}

export function bodyLines(bodies: RequestBodies, width: number): BodyLine[] {
	const size = Math.max(10, width);
	return [
		{text: 'Request headers', kind: 'heading'},
		...bodies.requestHeaders.flatMap(([name, value]) => wrap(`${name}: ${value}`, size).map((text): BodyLine => ({text, kind: 'text'}))),
		...section('Request body', bodies.request, 'none (refused before it was read, or empty)', size),
		...section('Response body', bodies.response, 'nothing was sent', size),
	];
}
