/** The line `serve` prints (and the TUI's log file keeps) for each finished request. */
import type {RequestFinished} from '../base/events.js';

/** One human line per request. Never a key: only the key's name. */
export function formatRequestLine(event: RequestFinished): string {
	const formats = event.outboundFormat && event.outboundFormat !== event.inboundFormat ? `${event.inboundFormat}→${event.outboundFormat}` : event.inboundFormat;
	const usage = event.usage ? ` in=${event.usage.inputTokens} out=${event.usage.outputTokens}${event.usage.cachedTokens ? ` cached=${event.usage.cachedTokens}` : ''}` : '';
	const parts = [
		event.time,
		String(event.status),
		`${event.method} ${event.path}`,
		formats,
		event.keyName ? `key=${event.keyName}` : null,
		event.model ? `model=${event.model}` : null,
		event.channelName ? `channel=${event.channelName}` : null,
		event.attempts && event.attempts.length > 1 ? `failover=${event.attempts.join('→')}` : null,
		event.conversation && event.conversation.state !== 'new' ? `conversation=${event.conversation.id}:${event.conversation.state}` : null,
		event.stream ? 'stream' : null,
		`${event.latencyMs}ms${usage}`,
		event.outcome === 'aborted' ? 'ABORTED' : null,
		event.error ? `error="${event.error}"` : null,
		event.warnings.length > 0 ? `warnings="${event.warnings.join('; ')}"` : null,
	];
	return parts.filter(Boolean).join('  ');
}
