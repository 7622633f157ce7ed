/**
 * The status bar's message: the last action's result, or a warning from the gateway (a store that
 * could not be read, a key that crossed its budget's warning threshold …), which also goes to the
 * log file. What a pane reports is about what was done there, often with that pane's keys in it
 * ("e edits them"): it goes when another pane is shown, and a result (`ok`, `info`) after
 * `transientMs` too. The gateway's warnings stay until the next message. The bar has two lines for
 * it; the help (`?`) shows it whole, with the warnings and errors before it (`recent`), gone from
 * the bar or not.
 */
import {useCallback, useEffect, useState} from 'react';
import type {EventBus, GatewayWarning} from '../../base/events.js';
import {budgetWarningText} from '../text.js';
import type {StatusMessage} from '../theme.js';

/** A message the status bar showed, and when (epoch ms). */
export type ShownMessage = {readonly at: number; readonly message: StatusMessage};

/** How many of the warnings and errors shown before the newest message the help keeps. */
export const recentMessages = 5;

export type Status = {
	readonly message: StatusMessage | null;
	/** The newest message shown (gone from the bar or not), then the warnings and errors shown before it, newest first. */
	readonly recent: readonly ShownMessage[];
	readonly report: (message: StatusMessage) => void;
	/** Drops what a pane reported (another pane is shown: "copied …", "e edits them" no longer belong); the gateway's warnings stay. */
	readonly leftPane: () => void;
};

const isResult = (message: StatusMessage | null) => message?.kind === 'ok' || message?.kind === 'info';

/** `recent` with `message` in front: the one before it kept only if it was a warning or an error (a result is about its moment), a text once. */
export function withMessage(recent: readonly ShownMessage[], message: StatusMessage, at: number): ShownMessage[] {
	const earlier = recent.filter((shown, index) => shown.message.text !== message.text && (index > 0 || !isResult(shown.message)));
	return [{at, message}, ...earlier.slice(0, recentMessages)];
}

export function useStatus(events: EventBus, initial: StatusMessage | null = null, transientMs = 20_000, now: () => number = Date.now): Status {
	const [message, setMessage] = useState<StatusMessage | null>(initial);
	const [recent, setRecent] = useState<readonly ShownMessage[]>(() => (initial ? [{at: now(), message: initial}] : []));
	// The gateway's messages (by identity): they are not any pane's, so showing another pane keeps them.
	// The first one too where it warns (listening beyond this machine): it is about the gateway, not a pane.
	const [fromGateway] = useState(() => new WeakSet<StatusMessage>(initial && !isResult(initial) ? [initial] : []));
	const show = useCallback((next: StatusMessage) => {
		setMessage(next);
		setRecent(current => withMessage(current, next, now()));
	}, []);
	const gatewaySays = (next: StatusMessage) => {
		fromGateway.add(next);
		show(next);
	};
	useEffect(() => {
		const offWarning = events.on('warning', warning => gatewaySays({kind: 'warn', text: warningText(warning)}));
		const offBudget = events.on('key:budget', warning => gatewaySays({kind: 'warn', text: `${budgetWarningText(warning)}. To raise it: 1, then e on the key.`}));
		return () => {
			offWarning();
			offBudget();
		};
	}, [events]);
	useEffect(() => {
		if (!isResult(message) || message === initial) return;
		const timer = setTimeout(() => setMessage(current => (current === message ? null : current)), transientMs);
		return () => clearTimeout(timer);
	}, [message]);
	return {
		message,
		recent,
		report: show,
		leftPane: useCallback(() => setMessage(current => (current && !fromGateway.has(current) ? null : current)), []),
	};
}

/** A gateway's warning in the TUI's words: a step on a channel is its pane and key (`2, then t on "claude"`), not the CLI's command. */
export function warningText({message, step}: GatewayWarning): string {
	if (!step) return message;
	const key = step.action === 'test' ? 't' : 'e';
	return `${step.lead}2, then ${key} on "${step.channel}"${step.tail}`;
}
