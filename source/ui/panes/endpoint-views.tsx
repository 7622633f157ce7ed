/** The parts of the Endpoints pane: base URLs, the chosen key, a snippet, and a tool's takeover state. */
import {homedir} from 'node:os';
import {Box, Text} from 'ink';
import {Details, type Detail} from '../components/details.js';
import {Table} from '../components/table.js';
import {noModelPrefix, untrustedFoldersMark, type ToolState, type ToolStatus} from '../../services/takeover/index.js';
import type {CheckState} from '../hooks/use-takeover.js';
import type {KeyRecord} from '../../base/records.js';
import {endpoints, type Endpoint, type Snippet} from '../snippets.js';
import {checkFailure, tilde, toolStateText} from '../takeover-text.js';
import {breakCommand, breakLines, keyStateText, wrapLines} from '../text.js';
import {theme} from '../theme.js';
import {keyState} from '../../store/keys.js';
import {assertNever} from '../../base/ir.js';

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

/** `reached`: the limit that refuses the key's next request (`over its budget`), said on the line. */
export function KeyLine({keys, index, tight = false, reached = null}: {readonly keys: readonly KeyRecord[]; readonly index: number; readonly tight?: boolean; readonly reached?: string | null}) {
	const key = keys[index];
	return (
		<Box marginTop={tight ? 0 : 1}>
			<Text color={theme.muted}>{'Key  '}</Text>
			{key ? (
				// One line, cut at the end if it must: the pane's layout counts it as one.
				<Text wrap="truncate">
					<Text color={theme.accent}>{'‹ '}</Text>
					<Text bold>{key.name}</Text>
					<Text color={theme.accent}>{' ›'}</Text>
					<Text color={keyState(key) === 'active' && !reached ? theme.muted : theme.warn}>{`  ${keyStateText(key)}${reached ? `, ${reached}` : ''} · ${index + 1} of ${keys.length}, ←/→ to choose (for the snippets)`}</Text>
				</Text>
			) : (
				<Text color={theme.warn} wrap="truncate">
					no keys yet: press 1, then n to create one
				</Text>
			)}
		</Box>
	);
}

/** A snippet in `width` columns: its lines broken where the column ends, as a terminal would show them when pasted. */
export function SnippetView({snippet, width}: {readonly snippet: Snippet; readonly width: number}) {
	return (
		<>
			{snippet.note ? <Text color={theme.muted}>{snippet.note}</Text> : null}
			<Text>{snippetLines(snippet, width)}</Text>
			<Text color={theme.muted}>{`c copies this ${snippet.what}`}</Text>
		</>
	);
}

function snippetLines(snippet: Snippet, width: number): string {
	switch (snippet.language) {
		case 'shell':
			return breakCommand(snippet.text, width);
		case 'json':
			return breakLines(snippet.text, width);
		default:
			return assertNever(snippet.language);
	}
}

export const stateColors: Readonly<Record<ToolState, string>> = {'taken-over': theme.ok, 'connected-elsewhere': theme.warn, 'not-taken-over': theme.muted, 'not-detected': theme.muted};

type ToolProps = {
	readonly status: ToolStatus;
	/** The columns the detail has. */
	readonly width: number;
	/** The live check after the last takeover from this pane. */
	readonly check: CheckState | undefined;
	readonly busy: boolean;
};

/**
 * A warning from the tool's files, with what to do in this pane (and paths under the home as ~/…).
 * Gemini CLI's folder trust is said in three lines, not six: at 80×24 the detail beside the list has
 * ten or eleven rows, and the end of the longer text — the second way out — fell below the pane.
 */
function paneWarning(line: string, home = process.env.HOME || homedir()): string {
	if (line.includes(untrustedFoldersMark)) return 'Gemini CLI uses the gateway in folders it trusts: trust yours (or run `gemini --skip-trust`), or press a for every folder.';
	const short = line.replaceAll(`${home}/`, '~/');
	return short.startsWith(noModelPrefix) ? `${short} Press a to choose one.` : short;
}

export function ToolView({status, check, busy, width}: ToolProps) {
	const rows: Detail[] = [
		['state', toolStateText(status), status.problem ? theme.error : stateColors[status.state]],
		['points at', status.address ?? "its provider's default"],
		['model', status.model ?? 'not set'],
		[status.state === 'not-detected' ? 'missing' : 'config', status.state === 'not-detected' ? tilde(status.configDir) : status.files.map(file => tilde(file)).join(', ')],
	];
	if (check) rows.push(['live check', check === 'checking' ? 'sending one request…' : check.ok ? check.text : checkFailure(check), check === 'checking' ? theme.muted : check.ok ? theme.ok : theme.error]);
	return (
		<>
			<Text bold>{status.title}</Text>
			<Details rows={rows} labelWidth={11} />
			{status.problem ? <Text color={theme.error}>{status.problem}</Text> : null}
			{status.warnings.map(line => (
				// Broken here, not by Ink: its wrap carries the space before a word that ends a line to the next one.
				<Text key={line} color={theme.warn}>{wrapLines(`! ${paneWarning(line)}`, width).join('\n')}</Text>
			))}
			{/* Once taken over, the footer's "a take over  u undo" says it: its rows go to the warnings. */}
			{busy ? <Text color={theme.muted}>working…</Text> : status.state === 'taken-over' ? null : <Text color={theme.muted}>a takes it over (choose its key and model) · u puts its own settings back</Text>}
		</>
	);
}
