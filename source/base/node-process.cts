/**
 * What the build gives for `node:process` (esbuild's --alias in package.json): the process object
 * itself, to `import process from`, `import {env} from` and `require()` alike. Node's own ES module
 * of `node:process` reads every property of `process` as it is made — creating the stdin, stdout and
 * stderr streams among them — which cost ~6 ms of every start (env-paths' import alone, in `keys
 * list` and `serve`); a CommonJS module is read property by property only as it is used.
 */
export = process;
