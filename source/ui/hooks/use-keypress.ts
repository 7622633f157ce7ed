/**
 * The React side of the keyboard (keyboard.ts): the provider, `useKeypress` to listen on a layer,
 * and `useKeyState` for the state key handlers read and change.
 */
import {createContext, createElement, useContext, useLayoutEffect, useRef, useState, type ReactNode} from 'react';
import type {Keyboard, KeyHandler, Layer, Subscriber} from '../keyboard.js';

export type {Key} from '../keys.js';
export type {KeyHandler, Layer} from '../keyboard.js';

const KeyboardContext = createContext<Keyboard | null>(null);

export function KeypressProvider({keyboard, children}: {readonly keyboard: Keyboard; readonly children?: ReactNode}) {
	return createElement(KeyboardContext.Provider, {value: keyboard}, children);
}

/**
 * Listen to keys on a layer while `isActive`. The handler and `isActive` of the newest committed
 * render are used; a handler reads what keys change from refs (useKeyState), never from the
 * render it was made in, since several keys can come before the next render.
 */
export function useKeypress(handler: KeyHandler, {layer = 'pane', isActive = true}: {readonly layer?: Layer; readonly isActive?: boolean} = {}): void {
	const keyboard = useContext(KeyboardContext);
	const entry = useRef<Subscriber | null>(null);
	entry.current ??= {layer, handler, active: false};
	const subscriber = entry.current;
	useLayoutEffect(() => {
		subscriber.handler = handler;
		subscriber.active = isActive;
		subscriber.layer = layer;
	});
	useLayoutEffect(() => keyboard?.subscribe(subscriber), [keyboard, subscriber]);
}

export type KeyState<T> = {
	/** Always the newest value: what the last key set, even before it was rendered. */
	readonly current: T;
	set(next: T | ((current: T) => T)): void;
};

/**
 * State that key handlers read and change: `current` changes at once, a render follows. With
 * `moves`, the value decides who gets the next keys (a mode that opens a form, the focused field,
 * the shown pane): a change holds the keys after it until it is rendered.
 */
export function useKeyState<T>(initial: T | (() => T), options: {readonly moves?: boolean} = {}): KeyState<T> {
	const keyboard = useContext(KeyboardContext);
	const [, setRenders] = useState(0);
	const box = useRef<{value: T; pending: boolean; state: KeyState<T>} | null>(null);
	if (box.current === null) {
		const value = typeof initial === 'function' ? (initial as () => T)() : initial;
		const inner: {value: T; pending: boolean; state: KeyState<T>} = {
			value,
			pending: false,
			state: {
				get current() {
					return inner.value;
				},
				set(next) {
					const value = typeof next === 'function' ? (next as (current: T) => T)(inner.value) : next;
					if (Object.is(value, inner.value)) return;
					inner.value = value;
					if (options.moves && keyboard) {
						inner.pending = true;
						keyboard.hold();
					}
					setRenders(count => count + 1);
				},
			},
		};
		box.current = inner;
	}
	const inner = box.current;
	useLayoutEffect(() => {
		if (!inner.pending) return;
		inner.pending = false;
		keyboard?.settled();
	});
	useLayoutEffect(
		() => () => {
			if (inner.pending) keyboard?.settled();
		},
		[],
	);
	return inner.state;
}
