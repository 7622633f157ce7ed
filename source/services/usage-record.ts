/**
 * A finished request as the request log keeps it: the event, priced with its channel's prices
 * (read from the proxy's in-memory snapshot, never from the store), with its event type.
 */
import type {RequestEventType, RequestFinished} from '../events.js';
import type {ChannelRecord} from '../store/records.js';
import {costOf, priceOf} from './prices.js';
import type {RequestRecord} from './usage-types.js';

/** The event type the relay reported, or the one the status and channel imply. */
export function eventTypeOf(event: RequestFinished): RequestEventType {
	if (event.eventType) return event.eventType;
	if (event.channelId) {
		if (event.outcome === 'error') return 'failed';
		return (event.attempts?.length ?? 0) > 1 ? 'failover' : 'routed';
	}
	if (event.status < 400) return 'routed';
	if (event.model && (event.status === 404 || event.status === 503)) return 'no-channel';
	return 'rejected';
}

export function toRecord(event: RequestFinished, channels: readonly ChannelRecord[]): RequestRecord {
	const {eventType: _type, attempts, ...rest} = event;
	const channel = event.channelId ? channels.find(item => item.id === event.channelId) : undefined;
	const cost = costOf(event.usage, priceOf(channel, event.model, event.upstreamModel));
	return {
		...rest,
		eventType: eventTypeOf(event),
		attempts: attempts ?? (event.channelName ? [event.channelName] : []),
		costUsd: cost.costUsd,
		unpriced: cost.unpriced,
	};
}
