/**
 * Anthropic streaming, both directions.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export {decodeAnthropicStream} from './decode-anthropic-stream.js';
export {encodeAnthropicStream} from './encode-anthropic-stream.js';
