/**
 * A translated stream between two formats that both have synchronous steps (stream-steps.ts),
 * driven by the provider's body itself (`UpstreamBody.consume`): each chunk is parsed into SSE
 * messages, decoded, metered and encoded at once, and its frames leave as one write — with no
 * promise between the provider's bytes and the client's, and none kept while the stream waits for
 * its next chunk (over thousands of slow streams those waits moved promises and suspended frames
 * into V8's old generation). Only a client that reads slowly, or an encoder that keeps frames back
 * (the Responses API's closing frames of a long answer), makes the pipe wait; the provider's body
 * is paused meanwhile.
 *
 * The client's response opens with the first event, so a provider that fails, stalls past the
 * first-byte deadline, sends an error first or nothing at all still fails over. After the
 * decoder's terminal event what is left of the body is read and dropped (up to 64 KiB), so its
 * connection goes back to the pool.
 */
import {GatewayError} from '../base/errors.js';
import type {IRStreamEvent} from '../base/ir.js';
import {SseFeed, type SseMessage} from '../formats/sse.js';
import type {StreamDecoder, StreamEncoder} from '../formats/stream-steps.js';
import {goneWhileAnswered, type Attempt, type AttemptResult} from './attempt.js';
import {failedBeforeAnswer, type FirstByteDeadline} from './call-channel.js';
import {ClientStream} from './client-stream.js';
import {toGatewayError} from './errors.js';
import type {Hangup} from './hangup.js';
import type {BodySink} from './upstream-body.js';
import {upstreamFailure, type UpstreamResponse} from './upstream.js';

/** How a translated stream came out, as the pipe saw it. */
export type StepOutcome =
	/** Nothing reached the client: the attempt's result (a failure that may fail over, or the client gone). */
	| {readonly kind: 'before'; readonly result: AttemptResult}
	/** The provider's first event was an error, or it sent none (`first` undefined). */
	| {readonly kind: 'failed-at-once'; readonly first: IRStreamEvent | undefined}
	/** The client's response is open; `broken`: the provider's body failed part-way. */
	| {readonly kind: 'answered'; readonly out: ClientStream; readonly broken: GatewayError | null};

export type StepMeter = {tap(event: IRStreamEvent): IRStreamEvent};

export class StepPipe implements BodySink {
	private readonly messages: SseMessage[] = [];
	private readonly feed = new SseFeed(message => this.messages.push(message));
	/** Decoded events not encoded yet (the first ones before the response opens, or those that came while the pipe waited). */
	private readonly pending: IRStreamEvent[] = [];
	/** The decoder has said everything: its terminal event, or the end of the body and what `end()` added. */
	private decoded = false;
	private out: ClientStream | null = null;
	private encoder: StreamEncoder | null = null;
	/** Frames of the current turn not written yet (carried over a wait for kept-back frames). */
	private text = '';
	/** A write or kept-back frames are being waited for: events queue until it is over. */
	private waiting = false;
	/** The body failed while the pipe waited: settled once the wait is over. */
	private failure: {readonly error: unknown} | null = null;
	private settled = false;

	constructor(
		private readonly attempt: Attempt,
		private readonly upstream: UpstreamResponse,
		private readonly abort: Hangup,
		private readonly deadline: FirstByteDeadline,
		private readonly decoder: StreamDecoder,
		private readonly encoderOf: () => StreamEncoder,
		private readonly meter: StepMeter,
		private readonly settle: (outcome: StepOutcome) => void,
	) {}

	data(chunk: Buffer): void {
		try {
			this.feed.push(chunk);
			this.decode();
		} catch (error) {
			this.upstream.body.destroy(error);
			return;
		}
		this.pump();
	}

	end(): void {
		try {
			this.feed.end();
			this.decode();
			if (!this.decoded) {
				for (const event of this.decoder.end()) this.pending.push(event);
				this.decoded = true;
			}
		} catch (error) {
			this.fail(error);
			return;
		}
		this.pump();
	}

	fail(error: unknown): void {
		if (this.settled) return;
		this.failure = {error};
		if (!this.waiting) this.finishFailed();
	}

	/** The messages of what was fed, decoded; stops at the decoder's terminal event. */
	private decode(): void {
		for (let index = 0; index < this.messages.length; index++) {
			for (const event of this.decoder.push(this.messages[index]!)) this.pending.push(event);
			if (this.decoder.done) {
				// What is left of the body says nothing more: the body drops it, and calls this pipe no more.
				this.release();
				break;
			}
		}
		this.messages.length = 0;
	}

	/** Encode and write what is pending, unless the pipe waits; settles once the stream is over. */
	private pump(): void {
		if (this.waiting || this.settled) return;
		if (this.failure && !this.out) return this.finishFailed();
		if (!this.out && !this.open()) return;
		const encoder = this.encoder!;
		let text = this.text;
		this.text = '';
		try {
			while (this.pending.length > 0 && !encoder.done) {
				text += encoder.push(this.meter.tap(this.pending.shift()!));
				if (encoder.hasMore) return this.keptBack(text);
			}
			const over = encoder.done || (this.decoded && this.pending.length === 0);
			if (over && !encoder.done) {
				text += encoder.end();
				if (encoder.hasMore) return this.keptBack(text);
			}
			const written = text ? this.out!.write(text) : undefined;
			if (over) return this.finish(written);
			// The body failed while the pipe waited: what was decoded before is written, then the stream ends broken.
			if (this.failure) return this.after(written, () => this.finishFailed());
			if (written) this.wait(written);
		} catch (error) {
			this.failure ??= {error};
			this.finishFailed();
		}
	}

	/** The first events: open the client's response, or settle the attempt as a failure that may fail over. */
	private open(): boolean {
		const first = this.pending[0];
		if (!first && !this.decoded) return false;
		this.deadline.clear();
		if (this.abort.aborted) return this.done({kind: 'before', result: goneWhileAnswered});
		if (this.deadline.expired) return this.done({kind: 'before', result: failedBeforeAnswer(this.attempt, null, this.deadline)});
		if (!first || first.type === 'error') {
			this.release();
			return this.done({kind: 'failed-at-once', first});
		}
		const {inbound, call, reply} = this.attempt;
		this.out = new ClientStream(reply);
		this.out.open(200, {'content-type': inbound.streamContentType({sse: call.sse})});
		this.encoder = this.encoderOf();
		return true;
	}

	/** The client reads slowly: hold the provider's body until it has caught up, then go on. */
	private wait(written: Promise<void>): void {
		this.waiting = true;
		this.upstream.body.pause();
		void written.then(() => this.go());
	}

	/**
	 * The encoder keeps frames back: each is built only once what came before it is written and, when
	 * the client reads slowly, has drained. Then the pipe goes on with what is pending.
	 */
	private keptBack(text: string): void {
		this.waiting = true;
		this.upstream.body.pause();
		void writeBefore(this.out!, this.encoder!, text).then(
			rest => {
				this.text = rest;
				this.go();
			},
			(error: unknown) => {
				this.failure ??= {error};
				this.go();
			},
		);
	}

	/** The wait is over: the provider's body flows again and what is pending is written. */
	private go(): void {
		this.waiting = false;
		this.upstream.body.resume();
		this.pump();
	}

	private finish(written: Promise<void> | undefined): void {
		this.release();
		this.after(written, () => this.done({kind: 'answered', out: this.out!, broken: null}));
	}

	/** Once the client has taken `written` (or is gone): nothing is ended while a write is still on its way. */
	private after(written: Promise<void> | undefined, then: () => void): void {
		if (written) void written.then(then);
		else then();
	}

	private finishFailed(): void {
		const error = this.failure!.error;
		if (!this.out) {
			this.done({kind: 'before', result: this.abort.aborted ? goneWhileAnswered : failedBeforeAnswer(this.attempt, error, this.deadline)});
			return;
		}
		this.done({kind: 'answered', out: this.out, broken: this.abort.aborted ? null : toGatewayError(upstreamFailure(this.attempt.route.channel, error))});
	}

	/** Stop decoding: what is left of the body is read and dropped (see UpstreamBody.release). */
	private release(): void {
		this.decoded = true;
		this.upstream.body.release();
	}

	private done(outcome: StepOutcome): false {
		if (!this.settled) {
			this.settled = true;
			this.settle(outcome);
		}
		return false;
	}
}

/**
 * The frames an encoder kept back (`hasMore`: the Responses API's closing frames of a long answer),
 * each built only once what came before it is written and, when the client reads slowly, has
 * drained. Returns the text still to write. Only called when frames were kept back: the usual event
 * has none, so its frames join the batch's one write without a promise.
 */
async function writeBefore(out: ClientStream, encoder: StreamEncoder, text: string): Promise<string> {
	while (encoder.hasMore) {
		const waiting = text ? out.write(text) : undefined;
		if (waiting) await waiting;
		text = encoder.more();
	}
	return text;
}
