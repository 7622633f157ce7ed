/**
 * The status bar's message: the last action's result, or a warning from the gateway (a store that
 * could not be read, …), which also goes to the log file.
 */
import {useCallback, useEffect, useState} from 'react';
import type {EventBus} from '../../events.js';
import type {StatusMessage} from '../theme.js';

export function useStatus(events: EventBus, initial: StatusMessage | null = null): [StatusMessage | null, (message: StatusMessage) => void] {
	const [message, setMessage] = useState<StatusMessage | null>(initial);
	useEffect(() => events.on('warning', warning => setMessage({kind: 'warn', text: warning.message})), [events]);
	return [message, useCallback((next: StatusMessage) => setMessage(next), [])];
}
