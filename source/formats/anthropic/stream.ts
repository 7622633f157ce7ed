/**
 * Anthropic streaming, both directions.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export {decodeAnthropicStream, AnthropicStreamDecoder} from './decode-anthropic-stream.js';
export {encodeAnthropicStream, anthropicStreamEncoder} from './encode-anthropic-stream.js';
