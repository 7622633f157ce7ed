/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Helpers for pane tests: rendering with the app's keyboard (keyboard.ts) around the tree, key sequences as a
 * terminal sends them, waiting for a frame, a fake clipboard, and the real actions over a temp
 * store with every call recorded.
 */
import {rmSync} from 'node:fs';
import type {ReactElement} from 'react';
import {render} from 'ink-testing-library';
import {Keyboard} from '../../source/ui/keyboard.js';
import {KeypressProvider} from '../../source/ui/hooks/use-keypress.js';
import type {ClipboardPort, CopyOutcome} from '../../source/ui/clipboard.js';
import {createActions, type Actions} from '../../source/ui/actions.js';
import {Store} from '../../source/store/index.js';
import type {StatusMessage} from '../../source/ui/theme.js';
import {tempHome} from '../helpers/gateway.js';
import type {RequestFinished} from '../../source/base/events.js';

export const keys = {up: '\u001B[A', down: '\u001B[B', left: '\u001B[D', right: '\u001B[C', enter: '\r', escape: '\u001B', tab: '\t', shiftTab: '\u001B[Z', space: ' ', pageUp: '\u001B[5~', pageDown: '\u001B[6~', home: '\u001B[H', end: '\u001B[F'} as const;

export const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

type Stdin = {write(data: string): void; idle?: () => Promise<void>};

/**
 * ink-testing-library's render inside the app's keyboard: `stdin.write` takes any chunk (many keys
 * at once too) as the terminal would send it, `raw` is the same (kept for tests that say "in one
 * chunk"), and `keyboard` is the keyboard itself.
 */
export function renderTui(tree: ReactElement) {
	const keyboard = new Keyboard();
	const app = render(<KeypressProvider keyboard={keyboard}>{tree}</KeypressProvider>);
	const stdin = {write: (chunk: string) => keyboard.feed(chunk), idle: async () => {
		await keyboard.idle();
		// The render the last key asked for (React runs it in a task of its own).
		await new Promise(resolve => setImmediate(resolve));
	}};
	const rerender = (next: ReactElement) => app.rerender(<KeypressProvider keyboard={keyboard}>{next}</KeypressProvider>);
	return {...app, rerender, keyboard, raw: stdin, stdin};
}

/** Type keys one after the other; with renderTui's stdin, each once the one before was handled. */
export async function press(stdin: Stdin, ...sequence: string[]): Promise<void> {
	for (const key of sequence) {
		stdin.write(key);
		await (stdin.idle ? stdin.idle() : delay(Number(process.env.KEY_DELAY ?? 10)));
	}
}

/** Wait until the last frame satisfies `check`; fail with the frame otherwise. */
export async function frameWith(lastFrame: () => string | undefined, check: string | RegExp | ((frame: string) => boolean), ms = 3000): Promise<string> {
	const test = typeof check === 'function' ? check : (frame: string) => (typeof check === 'string' ? frame.includes(check) : check.test(frame));
	const deadline = Date.now() + ms;
	for (;;) {
		const frame = lastFrame() ?? '';
		if (test(frame)) return frame;
		if (Date.now() > deadline) throw new Error(`no frame matched ${String(check)} within ${ms} ms; last frame:\n${frame}`);
		await delay(10);
	}
}

export function fakeClipboard(outcome: CopyOutcome = {method: 'system'}): ClipboardPort & {copied: string[]} {
	const copied: string[] = [];
	return {
		copied,
		async copy(text) {
			copied.push(text);
			return outcome;
		},
	};
}

export type Call = {readonly name: keyof Actions; readonly args: readonly unknown[]};

/** The real actions over a fresh store, recording each call. */
export async function recordedActions(): Promise<{store: Store; actions: Actions; calls: Call[]; close(): Promise<void>}> {
	const home = tempHome();
	const store = await Store.open(home);
	const real = createActions(store);
	const calls: Call[] = [];
	const actions = Object.fromEntries(
		Object.entries(real).map(([name, action]) => [
			name,
			(...args: unknown[]) => {
				calls.push({name: name as keyof Actions, args});
				return (action as (...inner: unknown[]) => Promise<unknown>)(...args);
			},
		]),
	) as Actions;
	return {
		store,
		actions,
		calls,
		async close() {
			await store.close();
			rmSync(home, {recursive: true, force: true});
		},
	};
}

export function statusLog(): {messages: StatusMessage[]; report: (message: StatusMessage) => void; last: () => StatusMessage | undefined} {
	const messages: StatusMessage[] = [];
	return {messages, report: message => messages.push(message), last: () => messages.at(-1)};
}

/** A finished request as the live log shows it (today at 10:11:12, laptop's key, an OpenAI channel, 11 in / 7 out); `extra` changes any field. */
export function loggedRequest(id: string, extra: Partial<RequestFinished> = {}): RequestFinished {
	return {
		id,
		time: new Date(new Date().setHours(10, 11, 12, 0)).toISOString(),
		method: 'POST',
		path: '/v1/chat/completions',
		keyId: 'key_laptop',
		keyName: 'laptop',
		model: 'gpt-4o-mini',
		upstreamModel: 'gpt-4o-mini',
		channelId: 'ch_1',
		channelName: 'openai',
		inboundFormat: 'openai',
		outboundFormat: 'openai',
		stream: false,
		status: 200,
		outcome: 'ok',
		latencyMs: 120,
		ttfbMs: 80,
		usage: {inputTokens: 11, outputTokens: 7},
		error: null,
		warnings: [],
		eventType: 'routed',
		attempts: ['openai'],
		costUsd: 0,
		unpriced: false,
		...extra,
	};
}
