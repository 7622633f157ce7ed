/** Streaming chat completions, both ways: see the two generators' files. */
export {decodeOpenaiStream} from './decode-openai-stream.js';
export {encodeOpenaiStream} from './encode-openai-stream.js';
