/**
 * The parts of undici the gateway uses, loaded on their own. undici's index loads all of undici —
 * fetch, WebSocket, EventSource, caches, mock agents: a megabyte of source that costs every process
 * (serve, and the TUI's gateway worker) about 8 MB of memory and a share of its start — for an
 * Agent, its request API, its errors and the redirect interceptor. The index's one side effect is
 * repeated here: the request API (`request`, `stream`, …) goes onto the Dispatcher prototype.
 * The versions are the lockfile's; test/proxy/undici-parts.test.ts checks these are undici's own classes.
 */
import api from 'undici/lib/api/index.js';
import AgentClass from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import errors from 'undici/lib/core/errors.js';
import redirect from 'undici/lib/interceptor/redirect.js';

Object.assign(Dispatcher.prototype, api);

export const Agent = AgentClass;
export type Agent = InstanceType<typeof AgentClass>;
export {errors, redirect};
export type {Dispatcher} from 'undici';
