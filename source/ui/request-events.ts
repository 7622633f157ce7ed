/**
 * Every way requests reach the UI: one at a time (a gateway on this thread), in batches (the core's
 * worker), and read from the stored log (other gateways sharing the store).
 */
import type {EventBus} from '../base/events.js';
import {IdleTrim, type IdleTrimOptions} from '../base/idle-trim.js';

/** Call `react` whenever requests finished; returns the unsubscribe function. */
export function onRequestsFinished(events: EventBus, react: () => void): () => void {
	const offSingle = events.on('request:finished', () => react());
	const offBatch = events.on('requests:batch', () => react());
	const offStored = events.on('requests:stored', () => react());
	return () => {
		offSingle();
		offBatch();
		offStored();
	};
}

/**
 * The UI thread's own memory trim (base/idle-trim.ts): its heap grows with start-up and with the live
 * log's redraws under load, so it is given back once no request of any kind above has reached the UI
 * for the quiet period, as the core gives back its own. Returns the stop function.
 */
export function trimWhenQuiet(events: EventBus, options: IdleTrimOptions): () => void {
	const trim = new IdleTrim(options);
	const stop = trim.start();
	const untouch = onRequestsFinished(events, () => trim.touch());
	return () => {
		untouch();
		stop();
	};
}
