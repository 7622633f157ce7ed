#!/usr/bin/env node
/**
 * gateway-tui's entry point, a launcher: the commands are one CommonJS bundle (dist/commands.cjs,
 * from source/cli/main.ts) compiled with V8's code cache (base/code-cache.ts), which spares them
 * Node's ES module loader — resolving, linking and compiling chunks, about half of a command's own
 * start. The TUI's first step (source/ui/tui.ts) is an ES module built with this file, loaded by the
 * default command through the function given here (cli/default.ts says why).
 */
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {requireCached} from './base/code-cache.js';
import type {Main} from './cli/main.js';

const here = fileURLToPath(import.meta.url);
// Run from the sources (under tsx), the commands are imported as they are; the path is built, so
// that the build does not bundle them into this file as well.
const commands = (here.endsWith('.tsx') ? await import(new URL('./cli/main.ts', import.meta.url).href) : requireCached(join(dirname(here), 'commands.cjs'), undefined, {writeAtExit: true})) as {main: Main};
await commands.main(process.argv, () => import('./ui/tui.js'));
