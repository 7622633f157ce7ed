/**
 * A finished request as the request log keeps it: the event, priced with its channel's prices
 * (read from the proxy's in-memory snapshot, never from the store), with its event type.
 */
import {eventTypeOf, type RequestFinished} from './events.js';
import type {ChannelRecord} from './records.js';
import {costOf, priceOf} from './prices.js';
import type {RequestRecord} from './usage-types.js';

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
