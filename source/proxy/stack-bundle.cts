/**
 * The CommonJS packages the gateway core runs on, bundled into one script (dist/stack-bundle.cjs)
 * that ./stack.ts compiles from V8's code cache. undici's modules are loaded one by one, not
 * through its index: the index loads all of undici — fetch, WebSocket, EventSource, caches, mock
 * agents, a megabyte of source that would cost every process about 8 MB of memory and a share of
 * its start — for an Agent, its request API, its errors and the redirect interceptor. The index's
 * one side effect is repeated here: the request API (`request`, `stream`, …) goes onto the
 * Dispatcher prototype. test/proxy/stack.test.ts checks these are undici's own classes.
 */
import api from 'undici/lib/api/index.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import errors from 'undici/lib/core/errors.js';
import redirect from 'undici/lib/interceptor/redirect.js';
import Fastify from 'fastify';

Object.assign(Dispatcher.prototype, api);

export = {Agent: AgentClass, errors, redirect, Fastify};
