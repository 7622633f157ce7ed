/**
 * The gateway the Claude Code tests share: a chat-completions channel (DeepSeek-like, `cc-openai`)
 * and a Gemini channel (`cc-gemini`) on strict fake providers, and a key for Claude Code. Call once
 * at the top of a test file: it registers the before/after hooks and fills the object they return.
 */
import {after, before} from 'node:test';
import {startFakeProvider, type FakeProvider} from '../helpers/fake-providers.js';
import {startTestGateway, type TestGateway} from '../helpers/gateway.js';

export type ClaudeCodeGateway = {gateway: TestGateway; openai: FakeProvider; gemini: FakeProvider; secret: string};

export function useClaudeCodeGateway(): ClaudeCodeGateway {
	const setup = {} as ClaudeCodeGateway;
	before(async () => {
		[setup.openai, setup.gemini] = await Promise.all([startFakeProvider('openai'), startFakeProvider('gemini')]);
		setup.gateway = await startTestGateway();
		await setup.gateway.addProvider(setup.openai, {name: 'deepseek-like', models: 'cc-openai=gpt-4o'});
		await setup.gateway.addProvider(setup.gemini, {name: 'gemini', models: 'cc-gemini=gemini-2.5-pro'});
		setup.secret = (await setup.gateway.createKey({name: 'claude-code'})).secret;
	});
	after(async () => {
		await setup.gateway.close();
		await Promise.all([setup.openai.close(), setup.gemini.close()]);
	});
	return setup;
}
