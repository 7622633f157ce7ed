/**
 * `useInput` for the app's own handlers (panes, the form's navigation): the subscription is made
 * once, and each key goes to the handler, and is gated by the `isActive`, of the newest render.
 * Ink swaps handlers and applies `isActive` in effects, after a render is committed; reading them
 * through a ref that each render updates means a pane that was just hidden, or a form that was
 * just opened, acts on its new state from the next key on. (The KeyPacer makes sure that next key
 * comes after that render, for the text fields and ink-select-input too.)
 */
import {useCallback, useRef} from 'react';
import {useInput, type Key} from 'ink';

export type KeyHandler = (input: string, key: Key) => void;

export function useKeypress(handler: KeyHandler, options: {isActive?: boolean} = {}): void {
	const latest = useRef({handler, isActive: options.isActive ?? true});
	latest.current = {handler, isActive: options.isActive ?? true};
	useInput(
		useCallback((input: string, key: Key) => {
			if (latest.current.isActive) latest.current.handler(input, key);
		}, []),
	);
}
