/** The line `serve` prints (and the TUI's log file keeps) for each finished request. */
import type {RequestFinished} from '../base/events.js';
import {formatsText} from './request-filter.js';

/**
 * One human line per request, its fields two spaces apart; the empty ones are left out. Never a key:
 * only the key's name. Concatenated, not an array filtered and joined: `serve` writes one per request.
 */
export function formatRequestLine(event: RequestFinished): string {
	const formats = formatsText(event);
	const usage = event.usage ? ` in=${event.usage.inputTokens} out=${event.usage.outputTokens}${event.usage.cachedTokens ? ` cached=${event.usage.cachedTokens}` : ''}${event.usage.estimated ? ` estimated=${event.usage.estimatedOnly ?? 'all'}` : ''}` : '';
	let line = `${event.time}  ${event.status}  ${event.method} ${event.path}`;
	if (formats) line += `  ${formats}`;
	if (event.keyName) line += `  key=${event.keyName}`;
	if (event.model) line += `  model=${event.model}`;
	if (event.channelName) line += `  channel=${event.channelName}`;
	if (event.attempts && event.attempts.length > 1) line += `  failover=${event.attempts.join('→')}`;
	if (event.conversation && event.conversation.state !== 'new') line += `  conversation=${event.conversation.id}:${event.conversation.state}`;
	if (event.stream) line += '  stream';
	line += `  ${event.latencyMs}ms${usage}`;
	if (event.outcome === 'aborted') line += '  ABORTED';
	if (event.error) line += `  error="${event.error}"`;
	if (event.warnings.length > 0) line += `  warnings="${event.warnings.join('; ')}"`;
	return line;
}
