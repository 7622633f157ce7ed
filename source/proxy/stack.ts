/**
 * The HTTP stack of the gateway core: undici's Agent, request API, errors and redirect interceptor,
 * and Fastify. Built, they are one CommonJS script (dist/stack-bundle.cjs, from ./stack-bundle.cts)
 * compiled from V8's code cache (base/code-cache.ts): they are most of the source `serve` and the
 * TUI's core compile as they start. Run from source (the tests, through tsx), the bundle's entry is
 * required as it is.
 */
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import {requireCached} from '../base/code-cache.js';

type Stack = typeof import('./stack-bundle.cjs');

const stack = (fileURLToPath(import.meta.url).endsWith('.ts') ? createRequire(import.meta.url)('./stack-bundle.cts') : requireCached(fileURLToPath(new URL('./stack-bundle.cjs', import.meta.url)))) as Stack;

export const {Agent, errors, redirect, Fastify} = stack;
export type Agent = InstanceType<typeof Agent>;
export type {Dispatcher} from 'undici';
