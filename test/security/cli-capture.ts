/** Run a CLI command in this process (the same code `gateway-tui` runs) and capture what it prints. */
import {buildProgram} from '../../source/cli/program.js';

export async function runCommand(home: string, args: readonly string[]): Promise<string> {
	let out = '';
	const write = process.stdout.write.bind(process.stdout);
	process.stdout.write = ((chunk: string | Uint8Array) => {
		out += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
		return true;
	}) as typeof process.stdout.write;
	const exitCode = process.exitCode;
	try {
		await buildProgram(async () => {
			throw new Error('no TUI in this test');
		}).exitOverride().parseAsync(['node', 'gateway-tui', '--home', home, ...args]);
	} finally {
		process.stdout.write = write;
		process.exitCode = exitCode;
	}
	return out;
}
