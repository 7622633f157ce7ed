/** What the Keys pane shows besides its form: the table's columns, the questions, a new secret, a key's details. */
import {Box, Text} from 'ink';
import type {Column} from '../components/table.js';
import {DetailsWindow, type Detail} from '../components/details.js';
import {limitsText} from '../../services/limit-flags.js';
import type {KeyRecord} from '../../base/records.js';
import {keyStateText, relative} from '../text.js';
import {theme} from '../theme.js';
import {budgetWarnAt, reachedLimit, reachedLimitText, type LimitUse} from '../../base/periods.js';
import {keyState} from '../../store/keys.js';

export type Danger = 'revoke' | 'rotate' | 'delete';

export const stateColor = (key: KeyRecord) => ({active: theme.ok, expired: theme.warn, revoked: theme.error})[keyState(key)];

type Usage = {
	readonly channelName: (id: string) => string;
	readonly lastUsed: ReadonlyMap<string, string>;
	readonly requests: ReadonlyMap<string, number>;
	readonly limitUse: ReadonlyMap<string, LimitUse>;
};

/** `rpm 12/60 · $4.20 of $20.00 this month`: each limit with what the key used of it, or "-". */
export const keyLimitsText = (key: KeyRecord, limitUse: ReadonlyMap<string, LimitUse>) => (key.limits ? limitsText(key.limits, limitUse.get(key.id)) : '-');

/**
 * Red where the key's next request is refused (a limit reached, the budget spent: its STATE still
 * says active), yellow past the budget's warning threshold, muted without limits.
 */
export function limitsColor(key: KeyRecord, use: LimitUse | undefined): string | undefined {
	if (!key.limits) return theme.muted;
	if (!use) return undefined;
	if (reachedLimit(key.limits, use)) return theme.error;
	return use.spendUsd >= budgetWarnAt(key.limits) ? theme.warn : undefined;
}

/** `over its budget` where the key's next request is refused for a limit, else null. */
export function reachedText(key: KeyRecord, use: LimitUse | undefined): string | null {
	return use ? reachedLimitText(key.limits, use) : null;
}

const prefixColumn: Column<KeyRecord> = {header: 'KEY', width: 13, value: row => `${row.secret.slice(0, 12)}…`, color: () => theme.muted};

/**
 * The limits are never cut mid-value (the column is as wide as its longest text); where a row is too
 * narrow, the other columns give way first: the key prefix (the same "sk-gtui-" on every row; Enter
 * shows it), then the last use, the channels and the models; a long name is cut only before the limits go.
 */
export function keyColumns({channelName, lastUsed, requests, limitUse}: Usage): Array<Column<KeyRecord>> {
	return [
		{header: 'NAME', width: 8, grow: 2, wants: {width: 16, priority: 1.5}, value: row => row.name},
		{...prefixColumn, priority: 5},
		{header: 'MODELS', width: 8, grow: 2, value: row => row.models.join(',') || 'all', priority: 2},
		{header: 'CHANNELS', width: 8, grow: 1, value: row => row.channels.map(channelName).join(',') || 'all', priority: 3},
		{header: 'STATE', width: 14, value: row => keyStateText(row), color: stateColor},
		{header: 'LAST USED', width: 9, value: row => relative(lastUsed.get(row.id) ?? null), priority: 4},
		{header: 'REQS', width: 4, align: 'right', whole: true, value: row => String(requests.get(row.id) ?? 0)},
		{header: 'LIMITS', width: 10, whole: true, value: row => keyLimitsText(row, limitUse), color: row => limitsColor(row, limitUse.get(row.id)), priority: 1},
	];
}

export const questions: Readonly<Record<Danger, (name: string) => string>> = {
	revoke: name => `Revoke key "${name}"?`,
	rotate: name => `Rotate key "${name}"?`,
	delete: name => `Delete key "${name}"?`,
};

export const consequences: Readonly<Record<Danger, string>> = {
	revoke: 'Clients using it get 401 within a second. It stays listed as revoked.',
	rotate: 'It gets a new secret; the old one stops working within a second.',
	delete: 'It is removed for good; clients using it get 401.',
};

export function SecretView({keyRecord, verb}: {readonly keyRecord: KeyRecord; readonly verb: string}) {
	return (
		<Box flexDirection="column">
			<Text>{`Key "${keyRecord.name}" ${verb}. Its secret:`}</Text>
			<Box marginY={1} marginLeft={2}>
				<Text bold color={theme.ok}>
					{keyRecord.secret}
				</Text>
			</Box>
			<Text color={theme.muted}>c copy · Esc back to the list · 3 Endpoints: ready-to-paste snippets for each tool</Text>
		</Box>
	);
}

export type KeyDetailsOf = {readonly keyRecord: KeyRecord; readonly channelName: (id: string) => string; readonly lastUsed: string | null; readonly requests: number; readonly limits: string};

export function keyDetailRows({keyRecord, channelName, lastUsed, requests, limits}: KeyDetailsOf): Detail[] {
	return [
		['name', keyRecord.name],
		['id', keyRecord.id],
		['key', `${keyRecord.secret.slice(0, 12)}… (c copies it)`],
		['description', keyRecord.description || '-'],
		['models', keyRecord.models.join(', ') || 'all'],
		['channels', keyRecord.channels.map(channelName).join(', ') || 'all'],
		['state', keyStateText(keyRecord), stateColor(keyRecord)],
		['expires', keyRecord.expiresAt ?? 'never'],
		['created', keyRecord.createdAt],
		['last used', lastUsed ? `${lastUsed} (${relative(lastUsed)})` : 'never'],
		['requests', String(requests)],
		['limits', limits],
	];
}

export function KeyDetails({rows, width, height, top}: {readonly rows: readonly Detail[]; readonly width: number; readonly height: number; readonly top: number}) {
	return <DetailsWindow rows={rows} hint="Esc back · e edit" width={width} height={height} top={top} />;
}
