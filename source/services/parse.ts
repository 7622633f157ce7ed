/**
 * Parsers for what users type on the command line or into TUI forms. Each refusal is a UserError
 * that says what was wrong and what to type instead.
 */
import {UserError} from '../base/errors.js';
import type {ChannelModel} from '../base/records.js';

const units: Record<string, number> = {s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000};

/** `30d`, `12h`, `45m`, `10s`, `2w` → milliseconds. */
export function parseDuration(text: string, what = 'duration'): number {
	const match = /^(\d+)\s*([smhdw])$/.exec(text.trim());
	if (!match) throw new UserError(`Invalid ${what} "${text}": use a number and a unit, like 30d, 12h, 45m or 10s.`);
	const ms = Number(match[1]) * units[match[2]!]!;
	if (ms <= 0) throw new UserError(`Invalid ${what} "${text}": it must be longer than zero.`);
	return ms;
}

export function parseExpiry(input: {expiresIn?: string; expiresAt?: string}, now = new Date()): string | null {
	if (input.expiresIn && input.expiresAt) throw new UserError('Give either --expires-in or --expires-at, not both.');
	if (input.expiresIn) return new Date(now.getTime() + parseDuration(input.expiresIn, 'expiry')).toISOString();
	if (input.expiresAt) {
		const time = Date.parse(input.expiresAt);
		if (Number.isNaN(time)) throw new UserError(`Invalid --expires-at "${input.expiresAt}": use an ISO-8601 date such as 2026-12-31 or 2026-12-31T18:00:00Z.`);
		if (time <= now.getTime()) throw new UserError(`The expiry ${new Date(time).toISOString()} is in the past: choose a later date.`);
		return new Date(time).toISOString();
	}
	return null;
}

/** `a,b , c` → ['a','b','c'] (empty pieces dropped, duplicates removed). */
export function parseList(text: string | readonly string[] | undefined): string[] {
	if (text === undefined) return [];
	const pieces = (typeof text === 'string' ? [text] : text).flatMap(item => item.split(','));
	return [...new Set(pieces.map(piece => piece.trim()).filter(Boolean))];
}

/** `gpt-4o,fast=gpt-4o-mini` → [{name:'gpt-4o',upstream:'gpt-4o'},{name:'fast',upstream:'gpt-4o-mini'}]. */
export function parseModels(text: string | readonly string[] | undefined): ChannelModel[] {
	const items = parseList(text);
	if (items.length === 0) throw new UserError('The model list is empty: pass --models with at least one model, e.g. --models gpt-4o,fast=gpt-4o-mini.');
	const models: ChannelModel[] = [];
	for (const item of items) {
		const [name, upstream, extra] = item.split('=').map(part => part.trim());
		if (!name || extra !== undefined || (upstream !== undefined && !upstream)) {
			throw new UserError(`Invalid model "${item}": use NAME or ALIAS=UPSTREAM, e.g. fast=gpt-4o-mini.`);
		}
		if (models.some(model => model.name === name)) throw new UserError(`The model "${name}" is listed twice: give each client-facing name once.`);
		models.push({name, upstream: upstream ?? name});
	}
	return models;
}

export function formatModels(models: readonly ChannelModel[]): string {
	return models.map(model => (model.name === model.upstream ? model.name : `${model.name}=${model.upstream}`)).join(',');
}

export function parseBaseUrl(text: string): string {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new UserError(`Invalid base URL "${text}": give a full http(s) URL such as https://api.openai.com/v1.`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new UserError(`Invalid base URL "${text}": only http:// and https:// are supported.`);
	}
	if (url.search || url.hash) throw new UserError(`Invalid base URL "${text}": remove the query string or fragment.`);
	return url.toString().replace(/\/+$/, '');
}

export function parseInteger(text: string, what: string): number {
	if (!/^-?\d+$/.test(text.trim())) throw new UserError(`Invalid ${what} "${text}": give a whole number.`);
	return Number(text);
}
