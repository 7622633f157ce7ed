import {randomHex as token} from '../../base/random-ids.js';

/**
 * Message ids start with `msg_` (`msg_01XFDUDYJgAACzvnptvVoYEL`); an answer from another format keeps
 * its id behind the prefix (`msg_chatcmpl-…`), so the request log's id still finds it upstream. None:
 * a fresh random one (never a time, which two answers in one millisecond would share).
 */
export function toMessageId(id: string): string {
	if (id.startsWith('msg_')) return id;
	return `msg_${id || token(24)}`;
}
