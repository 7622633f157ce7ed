/**
 * One driver per official SDK with the same operations, so the translation matrix runs identical
 * scenarios for every (client format, channel format) pair. Each returns what the user's code sees,
 * already normalised for assertions (text, finish reason, usage, tool calls).
 */
import type {Format} from '../../source/base/ir.js';
import type {ContentBlockParam, Message, MessageCreateParamsNonStreaming} from '@anthropic-ai/sdk/resources/messages';
import {anthropicClient, geminiClient, openaiClient} from './sdks.js';

export type ToolCallSeen = {id: string; name: string; args: Record<string, unknown>};
export type AnswerSeen = {text: string; finish: string; usage: {input: number; output: number; cached: number}; toolCalls: ToolCallSeen[]; arrivals: number[]};
export type Turn = {prompt: string; system?: string; image?: {mediaType: string; data: string}; maxTokens?: number; tools?: boolean; history?: {call: ToolCallSeen; result: string}};

export type Driver = {
	answer(model: string, turn: Turn, stream: boolean): Promise<AnswerSeen>;
	count(model: string, prompt: string): Promise<number>;
	/** The HTTP status (and retry-after) of a failing call, as the SDK reports it. */
	fail(model: string): Promise<{status: number; message: string}>;
};

const weatherSchema = {type: 'object', properties: {city: {type: 'string', description: 'City name'}}, required: ['city']} as const;

export function driver(format: Format, base: string, key: string): Driver {
	switch (format) {
		case 'openai':
			return openaiDriver(base, key);
		case 'anthropic':
			return anthropicDriver(base, key);
		case 'gemini':
			return geminiDriver(base, key);
	}
}

async function errorOf(run: () => Promise<unknown>): Promise<{status: number; message: string}> {
	try {
		await run();
	} catch (error) {
		const status = (error as {status?: unknown}).status;
		return {status: typeof status === 'number' ? status : -1, message: (error as Error).message};
	}
	throw new Error('expected the call to fail');
}

function openaiDriver(base: string, key: string): Driver {
	const client = openaiClient(base, key);
	type Params = Parameters<typeof client.chat.completions.create>[0];
	const params = (model: string, turn: Turn): Params => {
		const content = turn.image
			? [
					{type: 'text' as const, text: turn.prompt},
					{type: 'image_url' as const, image_url: {url: `data:${turn.image.mediaType};base64,${turn.image.data}`}},
				]
			: turn.prompt;
		const messages: Params['messages'] = [...(turn.system ? [{role: 'system' as const, content: turn.system}] : []), {role: 'user', content}];
		if (turn.history) {
			const {call, result} = turn.history;
			messages.push({role: 'assistant', content: null, tool_calls: [{id: call.id, type: 'function', function: {name: call.name, arguments: JSON.stringify(call.args)}}]});
			messages.push({role: 'tool', tool_call_id: call.id, content: result});
		}
		return {
			model,
			messages,
			...(turn.maxTokens ? {max_tokens: turn.maxTokens} : {}),
			...(turn.tools ? {tools: [{type: 'function', function: {name: 'get_weather', description: 'Weather for a city', parameters: weatherSchema}}]} : {}),
		};
	};
	return {
		async answer(model, turn, stream) {
			const started = Date.now();
			if (!stream) {
				const answer = await client.chat.completions.create({...params(model, turn), stream: false});
				const choice = answer.choices[0]!;
				return {
					text: choice.message.content ?? '',
					finish: choice.finish_reason,
					usage: {input: answer.usage!.prompt_tokens, output: answer.usage!.completion_tokens, cached: answer.usage!.prompt_tokens_details?.cached_tokens ?? 0},
					toolCalls: (choice.message.tool_calls ?? []).map(call => (call.type === 'function' ? {id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) as Record<string, unknown>} : {id: call.id, name: '?', args: {}})),
					arrivals: [Date.now() - started],
				};
			}
			const runner = client.chat.completions.stream({...params(model, turn), stream: true, stream_options: {include_usage: true}});
			const arrivals: number[] = [];
			runner.on('content', () => arrivals.push(Date.now() - started));
			const final = await runner.finalChatCompletion();
			const choice = final.choices[0]!;
			return {
				text: choice.message.content ?? '',
				finish: choice.finish_reason,
				usage: {input: final.usage?.prompt_tokens ?? -1, output: final.usage?.completion_tokens ?? -1, cached: final.usage?.prompt_tokens_details?.cached_tokens ?? 0},
				toolCalls: (choice.message.tool_calls ?? []).map(call => ({id: call.id, name: call.type === 'function' ? call.function.name : '?', args: call.type === 'function' ? (JSON.parse(call.function.arguments) as Record<string, unknown>) : {}})),
				arrivals,
			};
		},
		count: async () => {
			throw new Error('OpenAI has no count endpoint');
		},
		fail: model => errorOf(() => client.chat.completions.create({model, messages: [{role: 'user', content: 'fail'}]})),
	};
}

function anthropicDriver(base: string, key: string): Driver {
	const client = anthropicClient(base, key);
	type Params = MessageCreateParamsNonStreaming;
	const params = (model: string, turn: Turn): Params => {
		const content: ContentBlockParam[] = [{type: 'text', text: turn.prompt}];
		if (turn.image) content.push({type: 'image', source: {type: 'base64', media_type: turn.image.mediaType as 'image/png', data: turn.image.data}});
		const messages: Params['messages'] = [{role: 'user', content}];
		if (turn.history) {
			const {call, result} = turn.history;
			messages.push({role: 'assistant', content: [{type: 'tool_use', id: call.id, name: call.name, input: call.args}]});
			messages.push({role: 'user', content: [{type: 'tool_result', tool_use_id: call.id, content: result}]});
		}
		return {
			model,
			max_tokens: turn.maxTokens ?? 1024,
			messages,
			...(turn.system ? {system: turn.system} : {}),
			...(turn.tools ? {tools: [{name: 'get_weather', description: 'Weather for a city', input_schema: weatherSchema as unknown as {type: 'object'}}]} : {}),
		};
	};
	const seen = (message: Message, arrivals: number[]): AnswerSeen => {
		const usage = message.usage;
		return {
			text: message.content.flatMap(block => (block.type === 'text' ? [block.text] : [])).join(''),
			finish: message.stop_reason ?? '',
			usage: {input: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0), output: usage.output_tokens, cached: usage.cache_read_input_tokens ?? 0},
			toolCalls: message.content.flatMap(block => (block.type === 'tool_use' ? [{id: block.id, name: block.name, args: block.input as Record<string, unknown>}] : [])),
			arrivals,
		};
	};
	return {
		async answer(model, turn, stream) {
			const started = Date.now();
			if (!stream) {
				const message = await client.messages.create(params(model, turn));
				return seen(message, [Date.now() - started]);
			}
			const runner = client.messages.stream(params(model, turn));
			const arrivals: number[] = [];
			runner.on('text', () => arrivals.push(Date.now() - started));
			return seen(await runner.finalMessage(), arrivals);
		},
		async count(model, prompt) {
			return (await client.messages.countTokens({model, messages: [{role: 'user', content: prompt}]})).input_tokens;
		},
		fail: model => errorOf(() => client.messages.create({model, max_tokens: 10, messages: [{role: 'user', content: 'fail'}]})),
	};
}

function geminiDriver(base: string, key: string): Driver {
	const client = geminiClient(base, key);
	type Params = Parameters<typeof client.models.generateContent>[0];
	const params = (model: string, turn: Turn): Params => {
		const parts: Array<Record<string, unknown>> = [{text: turn.prompt}];
		if (turn.image) parts.push({inlineData: {mimeType: turn.image.mediaType, data: turn.image.data}});
		const contents: Array<{role: string; parts: Array<Record<string, unknown>>}> = [{role: 'user', parts}];
		if (turn.history) {
			const {call, result} = turn.history;
			const id = call.id ? {id: call.id} : {};
			contents.push({role: 'model', parts: [{functionCall: {...id, name: call.name, args: call.args}}]});
			contents.push({role: 'user', parts: [{functionResponse: {...id, name: call.name, response: {output: result}}}]});
		}
		return {
			model,
			contents,
			config: {
				...(turn.system ? {systemInstruction: turn.system} : {}),
				...(turn.maxTokens ? {maxOutputTokens: turn.maxTokens} : {}),
				...(turn.tools ? {tools: [{functionDeclarations: [{name: 'get_weather', description: 'Weather for a city', parametersJsonSchema: weatherSchema}]}]} : {}),
			},
		};
	};
	type Response = Awaited<ReturnType<typeof client.models.generateContent>>;
	const calls = (response: Response): ToolCallSeen[] => (response.functionCalls ?? []).map(call => ({id: call.id ?? '', name: call.name ?? '', args: (call.args ?? {}) as Record<string, unknown>}));
	return {
		async answer(model, turn, stream) {
			const started = Date.now();
			if (!stream) {
				const response = await client.models.generateContent(params(model, turn));
				const usage = response.usageMetadata;
				return {
					text: response.text ?? '',
					finish: response.candidates?.[0]?.finishReason ?? '',
					usage: {input: usage?.promptTokenCount ?? -1, output: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0), cached: usage?.cachedContentTokenCount ?? 0},
					toolCalls: calls(response),
					arrivals: [Date.now() - started],
				};
			}
			let text = '';
			let finish = '';
			let usage = {input: -1, output: -1, cached: 0};
			const toolCalls: ToolCallSeen[] = [];
			const arrivals: number[] = [];
			for await (const chunk of await client.models.generateContentStream(params(model, turn))) {
				if (chunk.text) {
					text += chunk.text;
					arrivals.push(Date.now() - started);
				}
				toolCalls.push(...calls(chunk));
				finish = chunk.candidates?.[0]?.finishReason ?? finish;
				const meta = chunk.usageMetadata;
				if (meta?.candidatesTokenCount !== undefined) usage = {input: meta.promptTokenCount ?? -1, output: meta.candidatesTokenCount + (meta.thoughtsTokenCount ?? 0), cached: meta.cachedContentTokenCount ?? 0};
			}
			return {text, finish, usage, toolCalls, arrivals};
		},
		async count(model, prompt) {
			return (await client.models.countTokens({model, contents: prompt})).totalTokens ?? -1;
		},
		fail: model => errorOf(() => client.models.generateContent({model, contents: 'fail'})),
	};
}
