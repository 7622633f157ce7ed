/**
 * Field readers for inbound client bodies. Each failure is a 400 naming the parameter path the way
 * Anthropic's own validation errors do (`messages.0.content.1.type: …`), so a client can find it.
 */
import {invalidRequest} from '../../base/errors.js';
import {isRecord, type WireRecord} from './schema.js';

export function expectRecord(value: unknown, path: string): WireRecord {
	if (!isRecord(value)) throw invalidRequest(`${path}: expected an object.`, path);
	return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
	if (!Array.isArray(value)) throw invalidRequest(`${path}: expected an array.`, path);
	return value;
}

export function expectString(value: unknown, path: string): string {
	if (typeof value !== 'string') throw invalidRequest(`${path}: Field required (a string).`, path);
	return value;
}

export function optionalString(value: unknown, path: string): string | undefined {
	if (value === undefined || value === null) return undefined;
	return expectString(value, path);
}

export function optionalBoolean(value: unknown, path: string): boolean | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'boolean') throw invalidRequest(`${path}: expected true or false.`, path);
	return value;
}

type NumberRule = {readonly integer?: boolean; readonly min?: number; readonly max?: number};

export function optionalNumber(value: unknown, path: string, rule: NumberRule = {}): number | undefined {
	if (value === undefined || value === null) return undefined;
	const ok =
		typeof value === 'number' &&
		Number.isFinite(value) &&
		(!rule.integer || Number.isInteger(value)) &&
		(rule.min === undefined || value >= rule.min) &&
		(rule.max === undefined || value <= rule.max);
	if (!ok) throw invalidRequest(`${path}: expected ${describeRule(rule)}, got ${JSON.stringify(value)}.`, path);
	return value;
}

function describeRule(rule: NumberRule): string {
	const kind = rule.integer ? 'an integer' : 'a number';
	if (rule.min !== undefined && rule.max !== undefined) return `${kind} from ${rule.min} to ${rule.max}`;
	if (rule.min !== undefined) return `${kind} ≥ ${rule.min}`;
	return kind;
}

export function optionalStringArray(value: unknown, path: string): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	return expectArray(value, path).map((item, index) => expectString(item, `${path}.${index}`));
}
