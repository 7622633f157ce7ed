/** Streaming chat completions, both ways: see the two generators' files. */
export {decodeOpenaiStream, OpenaiStreamDecoder} from './decode-openai-stream.js';
export {encodeOpenaiStream, openaiStreamEncoder} from './encode-openai-stream.js';
