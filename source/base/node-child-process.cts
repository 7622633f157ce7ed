/**
 * What the build gives for `node:child_process` (esbuild's --alias in package.json): the module's
 * functions, each loaded from Node on its first use. commander requires it at the top of its
 * command module (for subcommands that are executables of their own, which gateway-tui has none of),
 * and Node makes it with its internal modules when it is first required: ~4 ms of every command's
 * start, which only a command that asks the OS keychain (store/keychain.ts) or a takeover ever uses.
 */
type ChildProcess = typeof import('node:child_process');

const load = (): ChildProcess => process.getBuiltinModule('node:child_process');

const lazy: ChildProcess = {
	get ChildProcess() {
		return load().ChildProcess;
	},
	get exec() {
		return load().exec;
	},
	get execFile() {
		return load().execFile;
	},
	get execFileSync() {
		return load().execFileSync;
	},
	get execSync() {
		return load().execSync;
	},
	get fork() {
		return load().fork;
	},
	get spawn() {
		return load().spawn;
	},
	get spawnSync() {
		return load().spawnSync;
	},
};

export = lazy;
