/**
 * Strict fake HTTP servers for the three LLM provider APIs (OpenAI Chat Completions, Anthropic
 * Messages, Gemini generateContent), for integration tests that drive the gateway with the official
 * SDKs. They speak the real wire formats and reject what the real APIs reject. See
 * test/helpers/fake-providers/*.ts for the details of each format.
 *
 * Notes for test writers:
 * - Default models: openai gpt-4o-mini, gpt-4o, gpt-4.1, o4-mini; anthropic claude-sonnet-4-6,
 *   claude-haiku-4-5, claude-opus-4-1; gemini gemini-2.5-flash, gemini-2.5-pro, gemini-2.5-flash-lite.
 * - Every request is recorded in `received` (also rejected ones). Only a valid generation request
 *   (chat completion / message / generateContent / streamGenerateContent) takes a reply from the
 *   queue; auth and validation failures, models and count-tokens calls never consume one.
 * - `text` defaults to `Hello from fake-<format>` only when there are no toolCalls.
 * - `midStreamError.afterChunks` counts frames already written (OpenAI's role chunk, Anthropic's
 *   message_start and ping count too); if the stream has fewer frames, no error is sent.
 * - Anthropic validation follows the `anthropic-version` header: 2023-06-01 accepts temperature/top_p/top_k,
 *   2026-10-21 (what @anthropic-ai/sdk 1.x sends) rejects them. Count tokens =
 *   ceil(JSON.stringify({messages, system, tools}).length / 4); Gemini: same over {contents} (or
 *   {contents, systemInstruction, tools} of a generateContentRequest).
 * - Gemini `error.retryAfter` is rendered as a google.rpc.RetryInfo detail (`retryDelay: "<n>s"`), not a header.
 */
import type {FakeFormat, FakeOptions, FakeProvider} from './fake-providers/common.js';
import {startFakeAnthropic} from './fake-providers/anthropic.js';
import {startFakeGemini} from './fake-providers/gemini.js';
import {startFakeOpenAI} from './fake-providers/openai.js';

export type {FakeFormat, FakeOptions, FakeProvider, FakeReply, ReceivedRequest} from './fake-providers/common.js';
export {startFakeAnthropic, startFakeGemini, startFakeOpenAI};

export function startFakeProvider(format: FakeFormat, opts?: FakeOptions): Promise<FakeProvider> {
	switch (format) {
		case 'openai':
			return startFakeOpenAI(opts);
		case 'anthropic':
			return startFakeAnthropic(opts);
		case 'gemini':
			return startFakeGemini(opts);
	}
}
