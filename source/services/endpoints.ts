/**
 * The gateway's endpoints and the environment variables each tool reads, with the tools' own names:
 * OpenAI SDKs `OPENAI_BASE_URL` (…/v1) + `OPENAI_API_KEY`; Claude Code and the Anthropic SDK
 * `ANTHROPIC_BASE_URL` (root, no /v1) + `ANTHROPIC_AUTH_TOKEN`; Gemini CLI and the Gemini SDK
 * `GOOGLE_GEMINI_BASE_URL` (root) + `GEMINI_API_KEY`.
 */
import {assertNever, type Format} from '../base/ir.js';

export type Tool = Format;
export const tools: readonly Tool[] = ['openai', 'anthropic', 'gemini'];

export type EnvVar = {readonly name: string; readonly value: string};

export function envVars(tool: Tool, secret: string, base: string): EnvVar[] {
	switch (tool) {
		case 'openai':
			return [
				{name: 'OPENAI_BASE_URL', value: `${base}/v1`},
				{name: 'OPENAI_API_KEY', value: secret},
			];
		case 'anthropic':
			return [
				{name: 'ANTHROPIC_BASE_URL', value: base},
				{name: 'ANTHROPIC_AUTH_TOKEN', value: secret},
			];
		case 'gemini':
			return [
				{name: 'GOOGLE_GEMINI_BASE_URL', value: base},
				{name: 'GEMINI_API_KEY', value: secret},
			];
		default:
			return assertNever(tool, 'tool');
	}
}

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

export function exportLines(tool: Tool, secret: string, base: string): string {
	return envVars(tool, secret, base)
		.map(({name, value}) => `export ${name}=${shellQuote(value)}`)
		.join('\n');
}

export const toolTitles: Readonly<Record<Tool, string>> = {
	openai: 'OpenAI SDK and OpenAI-compatible tools',
	anthropic: 'Claude Code and the Anthropic SDK',
	gemini: 'Gemini CLI and the Gemini SDK',
};

export function parseTool(text: string | undefined): Tool | 'all' {
	if (text === undefined || text === 'all') return 'all';
	if (text === 'openai' || text === 'anthropic' || text === 'gemini') return text;
	throw new Error(`Unknown tool "${text}": use --tool openai, anthropic, gemini or all.`);
}
