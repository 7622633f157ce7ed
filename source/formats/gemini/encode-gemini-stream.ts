/**
 * IR stream events → what a Gemini client reads from `streamGenerateContent`.
 *
 * With `alt=sse`: one `data: {GenerateContentResponse}` frame per piece, each ended by CRLF CRLF as
 * Google's servers send them (the SDK splits on \n\n, \r\r or \r\n\r\n and wants the JSON on one
 * line). Without it: one JSON array written progressively, `[` before the first element and `,\r\n`
 * between elements, `]` at the end.
 *
 * Text and thoughts are written as they arrive. Gemini has no argument deltas, so a tool call's
 * argument pieces are held until its block ends and then sent as one whole functionCall part.
 * usageMetadata and finishReason ride on the last frame. A mid-stream error is a frame with an
 * `error` object, which @google/genai turns into an ApiError; then the stream ends.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
import type {EncodeStreamOptions, TranslationContext} from '../adapter.js';
import {assertNever, type IRSignature, type IRStreamEvent, type JsonObject} from '../../base/ir.js';
import {wrapSignature} from '../signature.js';
import {renderGeminiError} from './errors.js';
import {toGeminiFinishReason} from './map-gemini-finish-reason.js';
import {encodeGeminiUsage} from './map-gemini-usage.js';
import {parseArgs} from './response.js';
import {compact} from './schema.js';

type PendingCall = {readonly id: string; readonly name: string; args: string; signature?: IRSignature};
type BlockEvent = Exclude<IRStreamEvent, {type: 'finish'} | {type: 'error'}>;

const callPart = (call: PendingCall): JsonObject =>
	compact({
		functionCall: {id: call.id, name: call.name, args: parseArgs(call.args)},
		thoughtSignature: call.signature ? wrapSignature(call.signature, 'gemini') : undefined,
	});

export async function* encodeGeminiStream(
	events: AsyncIterable<IRStreamEvent>,
	options: EncodeStreamOptions,
	ctx: TranslationContext,
): AsyncGenerator<string> {
	let written = 0;
	let responseId: string | undefined;
	const calls = new Map<number, PendingCall>();
	const reasoningBlocks = new Set<number>();

	const frame = (body: JsonObject): string => {
		const json = JSON.stringify(body);
		const text = options.sse ? `data: ${json}\r\n\r\n` : `${written === 0 ? '[' : ',\r\n'}${json}`;
		written++;
		return text;
	};
	const chunk = (part: JsonObject, last: {finishReason?: string; usageMetadata?: JsonObject} = {}): string =>
		frame(compact({
			candidates: [compact({content: {parts: [part], role: 'model'}, finishReason: last.finishReason, index: 0})],
			usageMetadata: last.usageMetadata,
			modelVersion: options.model,
			responseId,
		}));

	function* onSignature(index: number, signature: IRSignature): Generator<string> {
		const call = calls.get(index);
		if (call) call.signature = signature;
		else yield chunk(compact({text: '', thought: reasoningBlocks.has(index) || undefined, thoughtSignature: wrapSignature(signature, 'gemini')}));
	}

	function* onBlockEvent(event: BlockEvent): Generator<string> {
		switch (event.type) {
			case 'start':
				responseId = event.id;
				return;
			case 'block-start':
				if (event.block.kind === 'tool_call') calls.set(event.index, {id: event.block.id, name: event.block.name, args: ''});
				if (event.block.kind === 'reasoning') reasoningBlocks.add(event.index);
				return;
			case 'text-delta':
				yield chunk({text: event.text});
				return;
			case 'reasoning-delta':
				yield chunk({text: event.text, thought: true});
				return;
			case 'signature':
				yield* onSignature(event.index, event.signature);
				return;
			case 'redacted-reasoning':
				ctx.warn('Dropped a redacted reasoning block: a Gemini client has no slot for its encrypted data.');
				return;
			case 'tool-args-delta': {
				const call = calls.get(event.index);
				if (call) call.args += event.json;
				return;
			}
			case 'block-end': {
				const call = calls.get(event.index);
				calls.delete(event.index);
				if (call) yield chunk(callPart(call));
				return;
			}
			case 'usage':
				return;
			default:
				assertNever(event, 'stream event');
		}
	}

	for await (const event of events) {
		if (event.type === 'finish') {
			for (const call of calls.values()) yield chunk(callPart(call));
			// Gemini's own last frame carries an empty text part beside finishReason and usage.
			yield chunk({text: ''}, {finishReason: toGeminiFinishReason(event.reason), usageMetadata: encodeGeminiUsage(event.usage)});
			break;
		}
		if (event.type === 'error') {
			yield frame(renderGeminiError(event.error).body);
			break;
		}
		yield* onBlockEvent(event);
	}
	if (!options.sse) yield written === 0 ? '[]' : ']';
}
