/**
 * Gemini streaming, both directions: the decoder (upstream SSE → IR events) and the encoder
 * (IR events → the frames a Gemini client reads), each a step object (stream-steps.ts) with its
 * generator form.
 */
export {decodeGeminiStream, GeminiStreamDecoder} from './decode-gemini-stream.js';
export {encodeGeminiStream, geminiStreamEncoder} from './encode-gemini-stream.js';
