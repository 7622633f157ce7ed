/**
 * The takeover state of Claude Code, Codex and Gemini CLI for the Endpoints pane: read when the
 * pane is shown and after each change. Every takeover ends with a live check (one request with the
 * written settings through the gateway); its result stays with the tool, for its details, and
 * the status bar says whether the tool answered.
 */
import {useEffect, useRef, useState} from 'react';
import {useKeyState} from './use-keypress.js';
import type {Actions, TakeoverApply} from '../actions.js';
import {takeoverTitles, type LiveCheck, type TakeoverTool, type ToolStatus} from '../../services/takeover/index.js';
import {attempt, type Report} from '../status.js';
import {takeoverDoneText, undoText} from '../takeover-text.js';
import {errorText} from '../text.js';

export type TakeoverActions = Pick<Actions, 'takeoverStatus' | 'applyTakeover' | 'undoTakeover' | 'previewTakeover' | 'checkTakeover'>;

/** A check under way, or its result. */
export type CheckState = LiveCheck | 'checking';

export type Takeover = {
	/** One per tool, or null until first read. */
	readonly statuses: readonly ToolStatus[] | null;
	readonly checks: ReadonlyMap<TakeoverTool, CheckState>;
	/** The tool being changed right now. */
	readonly busy: TakeoverTool | null;
	apply(tool: TakeoverTool, options: Omit<TakeoverApply, 'gatewayUrl'>): Promise<void>;
	undo(tool: TakeoverTool): Promise<void>;
};

export function useTakeover(actions: TakeoverActions, gatewayUrl: string, active: boolean, onStatus: Report): Takeover {
	const [statuses, setStatuses] = useState<readonly ToolStatus[] | null>(null);
	const [checks, setChecks] = useState<ReadonlyMap<TakeoverTool, CheckState>>(new Map());
	// A key state: `u` twice, typed together, sees the first one's work under way and waits.
	const busy = useKeyState<TakeoverTool | null>(null);
	// The newest props, for the async work below (the caller may pass a new object each render).
	const latest = useRef({actions, onStatus});
	latest.current = {actions, onStatus};
	const setCheck = (tool: TakeoverTool, check: CheckState | null) =>
		setChecks(current => {
			const next = new Map(current);
			if (check === null) next.delete(tool);
			else next.set(tool, check);
			return next;
		});

	const refresh = async () => {
		try {
			setStatuses(await latest.current.actions.takeoverStatus(gatewayUrl));
		} catch (error) {
			latest.current.onStatus({kind: 'error', text: `Could not read the tools' settings: ${errorText(error)}`});
		}
	};
	useEffect(() => {
		if (active) void refresh();
	}, [active, gatewayUrl]);

	return {
		statuses,
		checks,
		get busy() {
			return busy.current;
		},
		async apply(tool, options) {
			const {actions: act, onStatus: report} = latest.current;
			busy.set(tool);
			report({kind: 'info', text: `Pointing ${takeoverTitles[tool]} at the gateway…`});
			try {
				const result = await act.applyTakeover(tool, {...options, gatewayUrl});
				await refresh();
				setCheck(tool, 'checking');
				report({kind: 'info', text: `${takeoverTitles[tool]} points at the gateway; checking that it answers…`});
				const check = await act.checkTakeover(tool, gatewayUrl);
				setCheck(tool, check);
				report({kind: check.ok ? 'ok' : 'error', text: takeoverDoneText(result, check)});
			} catch (error) {
				report({kind: 'error', text: errorText(error)});
			} finally {
				busy.set(null);
				await refresh();
			}
		},
		async undo(tool) {
			busy.set(tool);
			const {onStatus: report} = latest.current;
			// "Nothing to undo" is no failure: a short note, not a red error cut after two lines.
			const quiet: Report = message => report(message.kind === 'error' && message.text.startsWith('Nothing to undo') ? {kind: 'info', text: `${takeoverTitles[tool]} is not taken over: nothing to undo (a takes it over).`} : message);
			const result = await attempt(quiet, () => latest.current.actions.undoTakeover(tool, gatewayUrl), undoText);
			if (result) setCheck(tool, null);
			busy.set(null);
			await refresh();
		},
	};
}
