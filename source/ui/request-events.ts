/**
 * Every way requests reach the UI: one at a time (a gateway on this thread), in batches (the core's
 * worker), and read from the stored log (other gateways sharing the store).
 */
import type {EventBus} from '../base/events.js';

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
