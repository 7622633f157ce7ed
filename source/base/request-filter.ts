/**
 * The request log's filter, as the TUI's `/` and `logs --filter` take it: every word must match the
 * key, the model (asked or sent), the channel (or one it tried first), the formats (with `stream` for
 * a streamed answer, as the log's FORMAT column shows them), the status or the outcome — `429`,
 * `5xx` (a status range), `aborted`, `stream`, `failover` (a request that went on to another
 * channel), `gpt-4o laptop` — case aside.
 */
import type {RequestFinished} from './events.js';

/** `openai→anthropic` where the request was translated, else its one format. */
export function formatsText(event: Pick<RequestFinished, 'inboundFormat' | 'outboundFormat'>): string {
	return event.outboundFormat && event.outboundFormat !== event.inboundFormat ? `${event.inboundFormat}→${event.outboundFormat}` : event.inboundFormat;
}

type Filterable = Pick<RequestFinished, 'keyName' | 'model' | 'upstreamModel' | 'channelName' | 'status' | 'outcome' | 'inboundFormat' | 'outboundFormat' | 'stream' | 'attempts'>;

function matches(event: Filterable, word: string): boolean {
	const range = /^([1-5])xx$/.exec(word);
	if (range) return Math.floor(event.status / 100) === Number(range[1]);
	// A request that failed over: the word, and the channels it tried before the one that answered.
	const tried = event.attempts.length > 1 ? `failover ${event.attempts.join(' ')}` : null;
	const fields = [event.keyName, event.model, event.upstreamModel, event.channelName, String(event.status), event.outcome, event.stream ? `${formatsText(event)} stream` : formatsText(event), tried];
	return fields.some(field => field?.toLowerCase().includes(word));
}

/** A test for the records `filter` keeps (every one where it has no words). */
export function requestFilter(filter: string): (event: Filterable) => boolean {
	const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
	return event => words.every(word => matches(event, word));
}

/** The records the filter keeps, in their order. */
export function filterLog<T extends Filterable>(log: readonly T[], filter: string): readonly T[] {
	if (filter.trim() === '') return log;
	return log.filter(requestFilter(filter));
}
