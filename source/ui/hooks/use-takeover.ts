/**
 * The takeover state of Claude Code, Codex and Gemini CLI for the Endpoints pane: read when the
 * pane is shown and after each change; apply and undo report to the status bar. The warnings of
 * the last apply (e.g. no model set) stay with the tool, for its details.
 */
import {useEffect, useRef, useState} from 'react';
import type {Actions, TakeoverApply} from '../actions.js';
import {takeoverTitles, type TakeoverTool, type ToolStatus} from '../../services/takeover/index.js';
import {attempt, type Report} from '../status.js';
import {applyText, undoText} from '../takeover-text.js';
import {errorText} from '../text.js';

export type TakeoverActions = Pick<Actions, 'takeoverStatus' | 'applyTakeover' | 'undoTakeover'>;

export type Takeover = {
	/** One per tool, or null until first read. */
	readonly statuses: readonly ToolStatus[] | null;
	readonly notes: ReadonlyMap<TakeoverTool, readonly string[]>;
	/** The tool being changed right now. */
	readonly busy: TakeoverTool | null;
	apply(tool: TakeoverTool, options: Omit<TakeoverApply, 'gatewayUrl'>): Promise<void>;
	undo(tool: TakeoverTool): Promise<void>;
};

export function useTakeover(actions: TakeoverActions, gatewayUrl: string, active: boolean, onStatus: Report): Takeover {
	const [statuses, setStatuses] = useState<readonly ToolStatus[] | null>(null);
	const [notes, setNotes] = useState<ReadonlyMap<TakeoverTool, readonly string[]>>(new Map());
	const [busy, setBusy] = useState<TakeoverTool | null>(null);
	// The newest props, for the async work below (the caller may pass a new object each render).
	const latest = useRef({actions, onStatus});
	latest.current = {actions, onStatus};

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

	const change = async <T>(tool: TakeoverTool, work: () => Promise<T>, text: (result: T) => string): Promise<T | undefined> => {
		setBusy(tool);
		const result = await attempt(latest.current.onStatus, work, text);
		setBusy(null);
		await refresh();
		return result;
	};
	return {
		statuses,
		notes,
		busy,
		async apply(tool, options) {
			latest.current.onStatus({kind: 'info', text: `Pointing ${takeoverTitles[tool]} at the gateway…`});
			const result = await change(tool, () => latest.current.actions.applyTakeover(tool, {...options, gatewayUrl}), applyText);
			if (result) setNotes(current => new Map(current).set(tool, result.warnings));
		},
		async undo(tool) {
			const result = await change(tool, () => latest.current.actions.undoTakeover(tool, gatewayUrl), undoText);
			if (result) setNotes(current => new Map(current).set(tool, result.warnings));
		},
	};
}
