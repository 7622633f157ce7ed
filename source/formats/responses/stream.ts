/** Streaming Responses events, both ways: see the two generators' files. */
export {decodeResponsesStream} from './decode-responses-stream.js';
export {encodeResponsesStream, responsesStreamEncoder, responsesStreamFailure} from './encode-responses-stream.js';
