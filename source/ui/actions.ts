/**
 * Everything the TUI can change, bound to one store: each action is a service function the CLI
 * also calls (so both always agree), followed by `afterChange` (reload the panes, and let the
 * proxy pick the change up now rather than at its next poll). Takeover edits the tools' own
 * config files, found through HOME (and CODEX_HOME) as for `gateway-tui takeover`.
 */
import {addChannel, editChannel, removeChannel, setChannelEnabled, testChannel, type AddChannelInput, type EditChannelInput} from '../services/channels.js';
import {createKey, deleteKey, editKey, revokeKey, rotateKey, type CreateKeyInput, type EditKeyInput} from '../services/keys.js';
import {applyTakeover, checkTakeover, takeoverPreview, takeoverStatus, undoTakeover, type ApplyResult, type LiveCheck, type PreviewLine, type TakeoverTool, type ToolStatus, type UndoResult} from '../services/takeover/index.js';
import type {Store} from '../store/index.js';
import {Scrubber} from '../base/secrets.js';
import {listChannels} from '../store/channels.js';
import {listKeys} from '../store/keys.js';
import type {ChannelRecord, KeyRecord} from '../base/records.js';
import {type ProbeResult} from '../base/probe-result.js';

export type Actions = {
	readonly createKey: (input: CreateKeyInput) => Promise<KeyRecord>;
	readonly editKey: (ref: string, input: EditKeyInput) => Promise<KeyRecord>;
	readonly revokeKey: (ref: string) => Promise<KeyRecord>;
	readonly rotateKey: (ref: string) => Promise<KeyRecord>;
	readonly deleteKey: (ref: string) => Promise<KeyRecord>;
	readonly addChannel: (input: AddChannelInput) => Promise<ChannelRecord>;
	readonly editChannel: (ref: string, input: EditChannelInput) => Promise<ChannelRecord>;
	readonly setChannelEnabled: (ref: string, enabled: boolean) => Promise<ChannelRecord>;
	readonly removeChannel: (ref: string) => Promise<ChannelRecord>;
	readonly testChannel: (ref: string) => Promise<{channel: ChannelRecord; result: ProbeResult}>;
	/** Takeover of Claude Code, Codex and Gemini CLI, for the gateway at `gatewayUrl` (undo records live in the store's home). */
	readonly takeoverStatus: (gatewayUrl: string) => Promise<ToolStatus[]>;
	readonly applyTakeover: (tool: TakeoverTool, options: TakeoverApply) => Promise<ApplyResult>;
	readonly undoTakeover: (tool: TakeoverTool, gatewayUrl: string) => Promise<UndoResult>;
	/** The lines a takeover would write, the key shown by name. */
	readonly previewTakeover: (tool: TakeoverTool, options: TakeoverChoice & {readonly gatewayUrl: string; readonly keyLabel: string}) => Promise<PreviewLine[]>;
	/** One request with the settings the tool's files hold, through the gateway. */
	readonly checkTakeover: (tool: TakeoverTool, gatewayUrl: string) => Promise<LiveCheck>;
};

/** What the takeover form chooses: the model (and Claude Code's fast one) and, for Gemini CLI, every folder or trusted ones only. */
export type TakeoverChoice = {readonly model?: string; readonly fastModel?: string; readonly allFolders?: boolean};

/** `key`: a key's name or id (default: `takeover-<tool>`); `force`: overwrite a tool connected elsewhere. */
export type TakeoverApply = TakeoverChoice & {readonly gatewayUrl: string; readonly key?: string; readonly force?: boolean};

export function createActions(store: Store, afterChange: () => Promise<void> | void = () => {}): Actions {
	const changing =
		<A extends unknown[], R>(run: (store: Store, ...args: A) => Promise<R>) =>
		async (...args: A): Promise<R> => {
			const result = await run(store, ...args);
			await afterChange();
			return result;
		};
	return {
		createKey: changing(createKey),
		editKey: changing(editKey),
		revokeKey: changing(revokeKey),
		rotateKey: changing(rotateKey),
		deleteKey: changing(deleteKey),
		addChannel: changing(addChannel),
		editChannel: changing(editChannel),
		setChannelEnabled: changing(setChannelEnabled),
		removeChannel: changing(removeChannel),
		testChannel: async ref => {
			// The provider's error may quote any key (its own, another channel's, a virtual key): all are masked, as `channels test` does.
			const scrubber = new Scrubber([...(await listChannels(store)).map(item => item.apiKey), ...(await listKeys(store)).map(key => key.secret)]);
			return testChannel(store, ref, async channel => (await import('../proxy/probe.js')).probeChannel(channel, undefined, scrubber));
		},
		takeoverStatus: gatewayUrl => takeoverStatus({gatewayUrl, dataDir: store.home}),
		// It may create the key takeover-<tool>: a change like the others.
		applyTakeover: changing((_store, tool: TakeoverTool, options: TakeoverApply) => applyTakeover(store, tool, {...options, dataDir: store.home})),
		undoTakeover: (tool, gatewayUrl) => undoTakeover(tool, {gatewayUrl, dataDir: store.home}),
		previewTakeover: (tool, options) => takeoverPreview(tool, options),
		checkTakeover: (tool, gatewayUrl) => checkTakeover(tool, {gatewayUrl, dataDir: store.home}),
	};
}
