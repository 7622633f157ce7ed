/**
 * The Anthropic Messages adapter.
 * @see https://docs.anthropic.com/en/api/messages
 */
import type {FormatAdapter} from '../adapter.js';
import {decodeAnthropicError, renderAnthropicError} from './errors.js';
import {decodeAnthropicRequest, encodeAnthropicRequest} from './request.js';
import {decodeAnthropicResponse, encodeAnthropicResponse} from './response.js';
import {decodeAnthropicStream, encodeAnthropicStream} from './stream.js';

export const anthropicAdapter: FormatAdapter = {
	format: 'anthropic',
	decodeRequest: decodeAnthropicRequest,
	encodeRequest: encodeAnthropicRequest,
	decodeResponse: decodeAnthropicResponse,
	encodeResponse: encodeAnthropicResponse,
	decodeStream: decodeAnthropicStream,
	encodeStream: encodeAnthropicStream,
	decodeError: decodeAnthropicError,
	renderError: renderAnthropicError,
};

export {
	decodeAnthropicCountTokensRequest,
	decodeAnthropicCountTokensResponse,
	encodeAnthropicCountTokensRequest,
	encodeAnthropicCountTokensResponse,
} from './count-tokens.js';
export {decodeAnthropicError, renderAnthropicError} from './errors.js';
