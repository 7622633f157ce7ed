/**
 * Where the request log's details get a request's bodies: asked of the gateway when the details
 * open (never pushed with every event), through a context the TUI provides (run.tsx) — so neither
 * the App nor the panes pass it along. Without a provider (no gateway in this process), there are none.
 */
import {createContext, useContext, useEffect, useRef, useState} from 'react';
import type {BodiesLookup} from '../base/events.js';

export type BodiesSource = {
	/** The bodies of `requestId` if they were captured and are still kept, and whether capture is on. */
	lookup(requestId: string): Promise<BodiesLookup>;
	/** Switch capture on or off (from the next request on); answers the new state. */
	capture(on: boolean): Promise<BodiesLookup>;
};

export const BodiesContext = createContext<BodiesSource | null>(null);

export type RequestBodiesState = {
	/** False when no gateway runs in this process: the details say nothing about bodies. */
	readonly available: boolean;
	/** Null while it is being asked. */
	readonly lookup: BodiesLookup | null;
	readonly error: string | null;
	/** Switch capture on or off. */
	toggle(): void;
};

export function useRequestBodies(requestId: string): RequestBodiesState {
	const source = useContext(BodiesContext);
	const [lookup, setLookup] = useState<BodiesLookup | null>(null);
	const [error, setError] = useState<string | null>(null);
	// What a key press reads: the newest answer, also before it was rendered (two quick `b`s switch twice).
	const latest = useRef<BodiesLookup | null>(null);
	const show = (next: BodiesLookup | null) => {
		latest.current = next;
		setLookup(next);
	};
	useEffect(() => {
		if (!source) return;
		let current = true;
		show(null);
		source.lookup(requestId).then(
			found => current && show(found),
			(failure: unknown) => current && setError(failure instanceof Error ? failure.message : String(failure)),
		);
		return () => {
			current = false;
		};
	}, [source, requestId]);
	const toggle = () => {
		const shown = latest.current;
		if (!source || !shown) return;
		latest.current = {...shown, capturing: !shown.capturing};
		source.capture(!shown.capturing).then(
			state => show({...state, bodies: shown.bodies}),
			(failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
		);
	};
	return {available: source !== null, lookup, error, toggle};
}
