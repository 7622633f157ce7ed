/**
 * Gemini streaming, both directions: the decoder (upstream SSE → IR events) and the encoder
 * (IR events → the frames a Gemini client reads). Each is an async generator whose state lives in
 * its own local variables.
 */
export {decodeGeminiStream} from './decode-gemini-stream.js';
export {encodeGeminiStream} from './encode-gemini-stream.js';
