/**
 * What a failure while calling a channel or reading its answer is called, and whether it counts
 * against the channel: the connection's and the HTTP client's errors are the channel's; a throw in
 * the gateway's own code (a decoder, an encoder) is the gateway's bug, said so, and never opens a
 * healthy channel's circuit.
 */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {GatewayError} from '../../source/base/errors.js';
import {transportFault} from '../../source/proxy/attempt.js';
import {errors} from '../../source/proxy/stack.js';
import {upstreamFailure} from '../../source/proxy/upstream.js';

const channel = {name: 'claude'};
const named = (error: unknown) => {
	const failure = upstreamFailure(channel, error);
	assert.ok(failure instanceof GatewayError);
	return failure;
};

test("the connection's and the HTTP client's errors are the channel's: 502, its base URL to check, a fault against it", () => {
	const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {code: 'ECONNREFUSED'});
	const invalidUrl = Object.assign(new TypeError('Invalid URL'), {code: 'ERR_INVALID_URL'});
	const wrapped = new TypeError('terminated', {cause: Object.assign(new Error('other side closed'), {code: 'UND_ERR_SOCKET'})});
	for (const error of [refused, invalidUrl, wrapped, new errors.SocketError('other side closed'), new errors.ResponseExceededMaxSizeError()]) {
		const failure = named(error);
		assert.equal(failure.kind, 'upstream', String(error));
		assert.equal(failure.status, 502);
		assert.match(failure.message, /^Channel "claude" could not be reached \(.+\)\. Check its base URL with `gateway-tui channels test claude`\.$/);
		assert.deepEqual(transportFault(failure), {kind: 'connect', reason: failure.message});
	}
	const late = named(new errors.BodyTimeoutError());
	assert.equal(late.kind, 'timeout');
	assert.equal(transportFault(late)?.kind, 'timeout');
});

test("a throw in the gateway's own code is said to be the gateway's bug and is no fault of the channel's", () => {
	for (const error of [new TypeError("Cannot read properties of undefined (reading 'text')"), new RangeError('Invalid array length'), new Error('The text contains a special token that is not allowed: <|endoftext|>'), 'a thrown string']) {
		const failure = named(error);
		assert.equal(failure.kind, 'internal', String(error));
		assert.equal(failure.status, 500);
		assert.match(failure.message, /^The gateway failed while handling channel "claude"'s answer \(.+\)\. This is a gateway bug, not the channel's: please report it with the request id\.$/);
		assert.equal(transportFault(failure), null, 'the channel keeps its health');
	}
	const own = new GatewayError('invalid_request', 400, 'refused');
	assert.equal(upstreamFailure(channel, own), own, 'a GatewayError is passed on as it is');
});
