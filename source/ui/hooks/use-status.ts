/**
 * The status bar's message: the last action's result, or a warning from the gateway (a store that
 * could not be read, a key that crossed its budget's warning threshold …), which also goes to the
 * log file.
 */
import {useCallback, useEffect, useState} from 'react';
import type {EventBus} from '../../base/events.js';
import {budgetWarningText} from '../text.js';
import type {StatusMessage} from '../theme.js';

export function useStatus(events: EventBus, initial: StatusMessage | null = null): [StatusMessage | null, (message: StatusMessage) => void] {
	const [message, setMessage] = useState<StatusMessage | null>(initial);
	useEffect(() => {
		const offWarning = events.on('warning', warning => setMessage({kind: 'warn', text: warning.message}));
		const offBudget = events.on('key:budget', warning => setMessage({kind: 'warn', text: `${budgetWarningText(warning)}. To raise it: 1, then e on the key.`}));
		return () => {
			offWarning();
			offBudget();
		};
	}, [events]);
	return [message, useCallback((next: StatusMessage) => setMessage(next), [])];
}
