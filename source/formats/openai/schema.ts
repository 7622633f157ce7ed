/**
 * OpenAI chat completions: the strict field readers for client requests, worded as the OpenAI
 * platform words a bad field ("`messages[0].role` must be a string."). Upstream answers are read
 * leniently with `../wire.ts`, because OpenAI-compatible servers (DeepSeek, vLLM, SGLang, Ollama…)
 * send `null` where OpenAI omits a field.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import {backtickWording, wireReaders} from '../wire.js';

export const {requireString, optionalString, optionalNumber, optionalBoolean, optionalObject, optionalArray} = wireReaders(backtickWording);
