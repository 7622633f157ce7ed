/**
 * `npm run build` (after `tsc --noEmit`): esbuild makes dist/ from the sources, five builds that share
 * one list of what stays outside the bundles and what stands in for a package:
 *
 * - `cli.js`, `tui.js`, `worker-entry.js` and their shared chunks, ES modules: the launcher, the
 *   TUI's first step (its log file and the core's worker, started before the UI's code loads) and
 *   where the core's worker thread starts;
 * - `commands.cjs`: every command, one CommonJS script the launcher compiles with V8's code cache
 *   (base/code-cache.ts) — Node 20 has none for ES modules;
 * - `stack-bundle.cjs`: Fastify and undici, loaded the same way by the gateway;
 * - `worker.cjs`: the core's worker (the gateway under the TUI), loaded the same way by worker-entry.js;
 * - `run.cjs`: the TUI's UI (Ink, React, the panes), loaded the same way by tui.js. Two of its
 *   packages wait at their top level, which a CommonJS script cannot: yoga-layout compiles its
 *   WebAssembly there (`wrapAssembly(await loadYoga())`), and Ink's reconciler loads React's
 *   devtools and its own package.json there when DEV=true. The bundle gets a yoga-layout whose
 *   default export is filled in when the WebAssembly is ready — it exports that promise as
 *   `yogaReady`, which tui.js awaits before the first render; Ink only touches Yoga inside functions —
 *   and a reconciler without the two DEV-only loads (without them DEV=true gives what it gives in any
 *   build whose react-devtools-core is missing: no devtools). Each patch checks the text it
 *   replaces: a new version of either package that moves it fails the build, saying which. The
 *   string-width package, which the UI needs only for a string outside its own fast path, is
 *   evaluated on its first call (`lazyStringWidth`).
 *
 * Run as `node --import tsx source/build/build.ts` from the repository's root.
 */
import {build, type BuildOptions, type OnLoadResult, type Plugin} from 'esbuild';
import {chmodSync, readFileSync, rmSync} from 'node:fs';
import {dirname, resolve} from 'node:path';

/** Loaded at run time from node_modules, never bundled: optional backends, the clipboard (with its own helper binaries), Fastify's code paths the gateway never takes. */
const external = ['@keyv/redis', '@keyv/postgres', 'pg', 'clipboardy', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request', 'react-devtools-core'];

/** What stands in for a package or a built-in (each file says why). */
const alias: Readonly<Record<string, string>> = {
	'string-width': './source/ui/string-width.ts',
	'@alcalzone/ansi-tokenize': './source/ui/ansi-tokenize.ts',
	'node:process': './source/base/node-process.cts',
	sqlite3: './source/store/sqlite3-driver.ts',
	'node:child_process': './source/base/node-child-process.cts',
};

const common: BuildOptions = {
	bundle: true,
	platform: 'node',
	target: 'node20',
	mainFields: ['module', 'main'],
	sourcemap: true,
	minifyWhitespace: true,
	minifySyntax: true,
	logLevel: 'warning',
	// React's production build, whatever NODE_ENV the user's shell exports.
	define: {'process.env.NODE_ENV': '"production"'},
};

/** A CommonJS script for base/code-cache.ts: `import.meta.url` is its own file's URL. */
const commonJs: BuildOptions = {
	...common,
	format: 'cjs',
	define: {...common.define, 'import.meta.url': '__importMetaUrl'},
	banner: {js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;"},
};

/** `text` with each of `replacements` made once; a `from` not found exactly once fails the build. */
function patched(text: string, file: string, replacements: ReadonlyArray<readonly [from: string, to: string]>): string {
	let out = text;
	for (const [from, to] of replacements) {
		const count = out.split(from).length - 1;
		if (count !== 1) throw new Error(`The build patches ${file} for a CommonJS bundle, but finds ${JSON.stringify(from)} there ${count} times instead of once: the package changed; update source/build/build.ts.`);
		out = out.replace(from, to);
	}
	return out;
}

/** The two packages of the TUI that wait at their top level, made to wait in tui.js instead (see above). */
const noTopLevelAwait: Plugin = {
	name: 'no-top-level-await',
	setup(builder) {
		builder.onLoad({filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/}, (args): OnLoadResult => ({
			loader: 'js',
			contents: patched(readFileSync(args.path, 'utf8'), 'yoga-layout/dist/src/index.js', [
				['const Yoga = wrapAssembly(await loadYoga());', 'const Yoga = {};\nexport const yogaReady = loadYoga().then(assembly => {\n  Object.assign(Yoga, wrapAssembly(assembly));\n});'],
			]),
		}));
		builder.onLoad({filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/}, (args): OnLoadResult => ({
			loader: 'js',
			contents: patched(readFileSync(args.path, 'utf8'), 'ink/build/reconciler.js', [
				["await import('./devtools.js');", '// React devtools: not in the CommonJS bundle (source/build/build.ts).'],
				['? await loadPackageJson()', '? { name: undefined, version: undefined }'],
			]),
		}));
	},
};

/**
 * The string-width package (which ui/string-width.ts hands any string outside its fast path)
 * evaluated on its first call instead of as the UI loads: its top level compiles `\p{RGI_Emoji}` as
 * a `v`-flag expression (~25 ms here) and starts an `Intl.Segmenter`, for a function the first
 * frame never calls. esbuild evaluates a module that is `require`d when it is first required: the
 * import from ui/string-width.ts gets a module that requires the package on its first call.
 */
const lazyStringWidth: Plugin = {
	name: 'lazy-string-width',
	setup(builder) {
		// Named for the source map; the package's folder goes along for the require.
		builder.onResolve({filter: /[\\/]string-width[\\/]index\.js$/}, args => (args.kind === 'import-statement' && /[\\/]source[\\/]ui[\\/]string-width\.ts$/.test(args.importer) ? {path: 'string-width, evaluated on its first call', namespace: 'lazy-string-width', pluginData: dirname(resolve(args.resolveDir, args.path))} : undefined));
		builder.onLoad({filter: /.*/, namespace: 'lazy-string-width'}, (args): OnLoadResult => ({
			loader: 'js',
			resolveDir: args.pluginData as string,
			contents: "let loaded;\nexport default function stringWidth(text, options) {\n  loaded ??= require('./index.js').default;\n  return loaded(text, options);\n}\n",
		}));
	},
};

rmSync('dist', {recursive: true, force: true});
await Promise.all([
	build({
		...common,
		entryPoints: ['source/cli.tsx', 'source/ui/tui.ts', 'source/proxy/worker-entry.ts'],
		splitting: true,
		format: 'esm',
		outdir: 'dist',
		entryNames: '[name]',
		external,
		alias,
		banner: {js: "import {createRequire as __gatewayRequire} from 'node:module'; const require = __gatewayRequire(import.meta.url);"},
	}),
	build({...commonJs, entryPoints: ['source/cli/main.ts'], outfile: 'dist/commands.cjs', external, alias}),
	build({...commonJs, entryPoints: ['source/proxy/worker.ts'], outfile: 'dist/worker.cjs', external, alias}),
	build({...common, format: 'cjs', entryPoints: ['source/proxy/stack-bundle.cts'], outfile: 'dist/stack-bundle.cjs', external: ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request']}),
	build({
		...commonJs,
		// Its entry, written here: yoga-layout's `yogaReady` exists only in the patched module.
		stdin: {contents: "export {yogaReady} from 'yoga-layout';\nexport {runTui} from './source/ui/run.tsx';\n", resolveDir: process.cwd(), sourcefile: 'run.cjs entry (source/build/build.ts)', loader: 'ts'},
		outfile: 'dist/run.cjs',
		external,
		alias,
		plugins: [noTopLevelAwait, lazyStringWidth],
	}),
]);
chmodSync('dist/cli.js', 0o755);
