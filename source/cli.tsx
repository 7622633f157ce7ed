#!/usr/bin/env node
/**
 * gateway-tui's entry point, a launcher: the commands are one CommonJS bundle (dist/commands.cjs,
 * from source/cli/main.ts) compiled with V8's code cache (base/code-cache.ts), which spares them
 * Node's ES module loader — resolving, linking and compiling chunks, about half of a command's own
 * start. The TUI's first step (source/ui/tui.ts) is an ES module built with this file, loaded by the
 * default command through the function given here (cli/default.ts says why).
 */
import {loadBundle} from './base/code-cache.js';
import type {Main} from './cli/main.js';

// Run from the sources (under tsx), the commands are imported as they are.
const commands = (await loadBundle(import.meta.url, 'commands.cjs', './cli/main.ts', {writeAtExit: true})) as {main: Main};
await commands.main(process.argv, () => import('./ui/tui.js'));
