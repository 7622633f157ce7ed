/**
 * Loose wire types for the OpenAI Responses API: only the fields we read or write.
 *
 * Client requests are read with the OpenAI platform's strict readers (same wording as chat
 * completions); upstream answers leniently with `../wire.ts`.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
import type {JsonObject} from '../../base/ir.js';
import {backtickWording, wireReaders} from '../wire.js';

export const {requireString, optionalString, optionalNumber, optionalBoolean, optionalArray} = wireReaders(backtickWording);

/** A web source cited by a range of the text. */
export type UrlCitation = {type: 'url_citation'; url: string; title: string; start_index: number; end_index: number};

/** `output_text` content part, as the API writes it (annotations and logprobs always present). */
export type OutputTextPart = {type: 'output_text'; text: string; annotations: UrlCitation[]; logprobs: []};

export type SummaryTextPart = {type: 'summary_text'; text: string};

export type MessageItem = {id: string; type: 'message'; status: ItemStatus; content: OutputTextPart[]; role: 'assistant'};

export type ReasoningItem = {id: string; type: 'reasoning'; summary: SummaryTextPart[]; encrypted_content: string | null};

export type FunctionCallItem = {id: string; type: 'function_call'; status: ItemStatus; arguments: string; call_id: string; name: string; namespace?: string};

/** A call to a `custom` (freeform) tool: raw text instead of JSON arguments (Codex's `apply_patch`). */
export type CustomToolCallItem = {id: string; type: 'custom_tool_call'; status: ItemStatus; call_id: string; name: string; namespace?: string; input: string};

/** A call to the `local_shell` tool: an argv to run, no JSON arguments. */
export type LocalShellCallItem = {id: string; type: 'local_shell_call'; status: ItemStatus; call_id: string; action: JsonObject};

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type OutputItem = MessageItem | ReasoningItem | FunctionCallItem | CustomToolCallItem | LocalShellCallItem;

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';
