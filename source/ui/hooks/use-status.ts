/**
 * The status bar's message: the last action's result, or a warning from the gateway (a store that
 * could not be read, a key that crossed its budget's warning threshold …), which also goes to the
 * log file. A result (`ok`, `info`) is about the moment it happened: it goes when another pane is
 * shown, or after `transientMs`; warnings and errors stay until the next message.
 */
import {useCallback, useEffect, useState} from 'react';
import type {EventBus} from '../../base/events.js';
import {budgetWarningText} from '../text.js';
import type {StatusMessage} from '../theme.js';

export type Status = {
	readonly message: StatusMessage | null;
	readonly report: (message: StatusMessage) => void;
	/** Drops an `ok` or `info` message (another pane is shown: "copied …" no longer belongs). */
	readonly clearResult: () => void;
};

const isResult = (message: StatusMessage | null) => message?.kind === 'ok' || message?.kind === 'info';

export function useStatus(events: EventBus, initial: StatusMessage | null = null, transientMs = 20_000): Status {
	const [message, setMessage] = useState<StatusMessage | null>(initial);
	useEffect(() => {
		const offWarning = events.on('warning', warning => setMessage({kind: 'warn', text: warning.message}));
		const offBudget = events.on('key:budget', warning => setMessage({kind: 'warn', text: `${budgetWarningText(warning)}. To raise it: 1, then e on the key.`}));
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
		report: useCallback((next: StatusMessage) => setMessage(next), []),
		clearResult: useCallback(() => setMessage(current => (isResult(current) ? null : current)), []),
	};
}
