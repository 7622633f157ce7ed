/**
 * The OS keychain, through its own command-line tool: `security` on macOS, libsecret's `secret-tool`
 * (any Secret Service: GNOME Keyring, KeePassXC, KWallet's bridge) on Linux. One `Keychain` with two
 * command sets, so the logic (time-boxing, parsing, the read-back after a write) is shared and the
 * macOS side stays a table of commands.
 *
 * The secret never goes on a command line (argv is visible in `ps`): `secret-tool store` reads it
 * from stdin; `security add-generic-password -w` with no value reads the terminal, not stdin, so on
 * macOS the whole command goes to `security -i` on stdin. Every call is time-boxed: a locked keychain
 * that prompts must not hang a headless command. A write is read back before it counts: both tools can
 * report success without storing what they were given.
 */
import {spawnSync} from 'node:child_process';

/** The entry the master key lives in: `service gateway-tui`, `account master-key`. */
export const keychainService = 'gateway-tui';
export const keychainAccount = 'master-key';
const label = 'gateway-tui master key';
export const defaultKeychainTimeoutMs = 5000;

export type RunResult = {
	/** The exit code; null when the command did not run to its end (time-out, missing, signal). */
	readonly status: number | null;
	readonly stdout: string;
	readonly stderr: string;
	readonly timedOut: boolean;
	/** The command is not installed (ENOENT). */
	readonly missing: boolean;
};

/** Runs one OS command: `input` (when given) on its stdin, killed after `timeoutMs`. */
export type Runner = (command: string, args: readonly string[], input: string | undefined, timeoutMs: number) => RunResult;

export function commandRunner(env: NodeJS.ProcessEnv = process.env): Runner {
	return (command, args, input, timeoutMs) => {
		const ran = spawnSync(command, args, {
			env,
			encoding: 'utf8',
			// No stdin at all for a lookup: a tool that finds a terminal there could prompt on it.
			stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
			...(input === undefined ? {} : {input}),
			timeout: timeoutMs,
			killSignal: 'SIGKILL',
			windowsHide: true,
		});
		const code = (ran.error as NodeJS.ErrnoException | undefined)?.code;
		return {status: ran.status, stdout: ran.stdout ?? '', stderr: ran.stderr ?? '', timedOut: code === 'ETIMEDOUT', missing: code === 'ENOENT'};
	};
}

export type KeychainRead =
	| {readonly state: 'found'; readonly secret: string}
	| {readonly state: 'absent'}
	| {readonly state: 'failed'; readonly reason: string; readonly timedOut: boolean; readonly missing: boolean};

export type KeychainWrite = {readonly ok: true} | {readonly ok: false; readonly reason: string; readonly timedOut: boolean};

export interface Keychain {
	/** "the macOS keychain", "the Secret Service keyring". */
	readonly name: string;
	/** The entry, for messages: the name with its service and account. */
	readonly where: string;
	/** Failing to reach it is usual (a headless Linux has no Secret Service): fall back without a word. */
	readonly quietWhenUnreachable: boolean;
	readonly timeoutMs: number;
	read(): KeychainRead;
	/** Store `secret` (replacing the entry's), then read it back; ok only when it reads back the same. */
	write(secret: string): KeychainWrite;
}

type Command = {readonly command: string; readonly args: readonly string[]; readonly input?: string};

/** How one OS spells the calls, and how it says "not found". */
export type CommandSet = {
	readonly name: string;
	readonly quietWhenUnreachable: boolean;
	lookup(service: string, account: string): Command;
	store(service: string, account: string, secret: string): Command;
	/** The lookup's answer: found, absent, or null for a failure. */
	parseLookup(result: RunResult): KeychainRead | null;
};

export const secretToolCommands: CommandSet = {
	name: 'the Secret Service keyring',
	quietWhenUnreachable: true,
	lookup: (service, account) => ({command: 'secret-tool', args: ['lookup', 'service', service, 'account', account]}),
	// The secret is the whole of stdin, up to EOF (a newline would be part of it: none is sent).
	store: (service, account, secret) => ({command: 'secret-tool', args: ['store', '--label', label, 'service', service, 'account', account], input: secret}),
	parseLookup(result) {
		if (result.status === 0 && result.stdout.trim() !== '') return {state: 'found', secret: result.stdout.trim()};
		// No such item: exit 1 and nothing said (a locked collection that cannot prompt answers the same).
		if (result.status === 1 && result.stderr.trim() === '') return {state: 'absent'};
		return null;
	},
};

/** errSecItemNotFound (-25300) as an exit code. */
const macItemNotFound = 44;

export const macosCommands: CommandSet = {
	name: 'the macOS keychain',
	quietWhenUnreachable: false,
	lookup: (service, account) => ({command: 'security', args: ['find-generic-password', '-s', service, '-a', account, '-w']}),
	// `security -i` reads commands from stdin, split on spaces: the secret (hex digits and commas) and the
	// names need no quoting. -U replaces an existing entry.
	store: (service, account, secret) => ({command: 'security', args: ['-i'], input: `add-generic-password -U -s ${service} -a ${account} -w ${secret}\n`}),
	parseLookup(result) {
		if (result.status === 0 && result.stdout.trim() !== '') return {state: 'found', secret: result.stdout.trim()};
		if (result.status === macItemNotFound || /could not be found/i.test(result.stderr)) return {state: 'absent'};
		return null;
	},
};

function failure(result: RunResult, tool: string, timeoutMs: number): {reason: string; timedOut: boolean; missing: boolean} {
	if (result.missing) return {reason: `${tool} is not installed`, timedOut: false, missing: true};
	if (result.timedOut) return {reason: `${tool} did not answer within ${timeoutMs / 1000} s: a locked keychain waiting for its password?`, timedOut: true, missing: false};
	const said = result.stderr.trim().split('\n').filter(Boolean).at(-1);
	return {reason: `${tool} failed${result.status === null ? '' : ` (exit ${result.status})`}${said ? `: ${said}` : ''}`, timedOut: false, missing: false};
}

export class CommandKeychain implements Keychain {
	readonly name: string;
	readonly where: string;
	readonly quietWhenUnreachable: boolean;

	constructor(
		private readonly commands: CommandSet,
		private readonly run: Runner,
		readonly timeoutMs: number = defaultKeychainTimeoutMs,
		private readonly service: string = keychainService,
		private readonly account: string = keychainAccount,
	) {
		this.name = commands.name;
		this.where = `${commands.name} (service ${service}, account ${account})`;
		this.quietWhenUnreachable = commands.quietWhenUnreachable;
	}

	read(): KeychainRead {
		const {command, args} = this.commands.lookup(this.service, this.account);
		const result = this.run(command, args, undefined, this.timeoutMs);
		return this.commands.parseLookup(result) ?? {state: 'failed', ...failure(result, command, this.timeoutMs)};
	}

	write(secret: string): KeychainWrite {
		// What goes through `security -i` must be one word; the master key is hex (commas between keys).
		if (!/^[0-9a-f,]+$/.test(secret)) return {ok: false, reason: 'only hex keys are stored in the keychain', timedOut: false};
		const {command, args, input} = this.commands.store(this.service, this.account, secret);
		const result = this.run(command, args, input, this.timeoutMs);
		if (result.status !== 0) return {ok: false, ...failure(result, command, this.timeoutMs)};
		const back = this.read();
		if (back.state === 'found' && back.secret === secret) return {ok: true};
		if (back.state === 'failed') return {ok: false, reason: `written, but reading it back failed: ${back.reason}`, timedOut: back.timedOut};
		return {ok: false, reason: `${command} reported success but the entry does not hold the new key`, timedOut: false};
	}
}

/** Parsed GATEWAY_TUI_KEYCHAIN_TIMEOUT_MS, else the default. */
export function keychainTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
	const value = Number(env.GATEWAY_TUI_KEYCHAIN_TIMEOUT_MS);
	return Number.isFinite(value) && value > 0 ? value : defaultKeychainTimeoutMs;
}

/** This OS's keychain (macOS: `security`; Linux and the BSDs: `secret-tool`), or null where there is none. */
export function systemKeychain(env: NodeJS.ProcessEnv = process.env, run: Runner = commandRunner(env), platform: NodeJS.Platform = process.platform): Keychain | null {
	const commands = platform === 'darwin' ? macosCommands : platform === 'linux' || platform === 'freebsd' || platform === 'openbsd' ? secretToolCommands : null;
	return commands ? new CommandKeychain(commands, run, keychainTimeoutMs(env)) : null;
}
