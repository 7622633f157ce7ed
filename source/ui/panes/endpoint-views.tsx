/** The parts of the Endpoints pane: base URLs, the chosen key, a snippet, and a tool's takeover state. */
import {Box, Text} from 'ink';
import {Details, type Detail} from '../components/details.js';
import {Table} from '../components/table.js';
import {takeoverKeyName, type ToolState, type ToolStatus} from '../../services/takeover/index.js';
import type {KeyRecord} from '../../base/records.js';
import {endpoints, type Endpoint, type Snippet} from '../snippets.js';
import {tilde, toolStateText} from '../takeover-text.js';
import {keyStateText} from '../text.js';
import {theme} from '../theme.js';
import {keyState} from '../../store/keys.js';

export function EndpointTable({baseUrl, width}: {readonly baseUrl: string; readonly width: number}) {
	return (
		<Table<Endpoint>
			columns={[
				{header: 'FORMAT', width: 9, value: row => row.format},
				{header: 'BASE URL', width: 27, value: row => row.baseUrl},
				{header: 'ENDPOINTS', width: 20, grow: 1, value: row => row.paths, color: () => theme.muted},
			]}
			rows={endpoints(baseUrl)}
			rowKey={row => row.format}
			selected={-1}
			width={width}
			height={4}
			empty=""
		/>
	);
}

export function KeyLine({keys, index}: {readonly keys: readonly KeyRecord[]; readonly index: number}) {
	const key = keys[index];
	return (
		<Box marginTop={1}>
			<Text color={theme.muted}>{'Key  '}</Text>
			{key ? (
				<Text>
					<Text color={theme.accent}>{'‹ '}</Text>
					<Text bold>{key.name}</Text>
					<Text color={theme.accent}>{' ›'}</Text>
					<Text color={keyState(key) === 'active' ? theme.muted : theme.warn}>{`  ${keyStateText(key)} · ${index + 1} of ${keys.length}, ←/→ to choose`}</Text>
				</Text>
			) : (
				<Text color={theme.warn}>no keys yet: press 1, then n to create one</Text>
			)}
		</Box>
	);
}

export function SnippetView({snippet}: {readonly snippet: Snippet}) {
	return (
		<>
			{snippet.note ? <Text color={theme.muted}>{snippet.note}</Text> : null}
			<Text>{snippet.text}</Text>
			<Text color={theme.muted}>{`c copies this ${snippet.what}`}</Text>
		</>
	);
}

export const stateColors: Readonly<Record<ToolState, string>> = {'taken-over': theme.ok, 'connected-elsewhere': theme.warn, 'not-taken-over': theme.muted, 'not-detected': theme.muted};

type ToolProps = {
	readonly status: ToolStatus;
	/** The key `a` would use: the one chosen with ←/→, else none (takeover-<tool>). */
	readonly keyName: string | null;
	readonly notes: readonly string[];
	readonly busy: boolean;
};

export function ToolView({status, keyName, notes, busy}: ToolProps) {
	const rows: Detail[] = [
		['state', toolStateText(status), status.problem ? theme.error : stateColors[status.state]],
		['points at', status.address ?? "its provider's default"],
		['model', status.model ?? '-'],
		[status.state === 'not-detected' ? 'missing' : 'config', status.state === 'not-detected' ? tilde(status.configDir) : status.files.map(file => tilde(file)).join(', ')],
	];
	const key = keyName ? `the key "${keyName}"` : `the key ${takeoverKeyName(status.tool)} (made if missing; ←/→ picks another)`;
	return (
		<>
			<Text bold>{status.title}</Text>
			<Details rows={rows} labelWidth={11} />
			{status.problem ? <Text color={theme.error}>{status.problem}</Text> : null}
			{[...status.warnings, ...notes].map(line => (
				<Text key={line} color={theme.warn}>{`! ${line}`}</Text>
			))}
			<Text color={theme.muted}>{busy ? 'working…' : `a points it at the gateway with ${key} · u puts its own settings back`}</Text>
		</>
	);
}
