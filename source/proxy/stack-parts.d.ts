/**
 * undici's own modules that source/proxy/stack-bundle.cts loads one by one (undici publishes types for its
 * index only). Each is typed here as what the index re-exports from it.
 */
declare module 'undici/lib/dispatcher/agent.js' {
	import type {Agent} from 'undici';
	const AgentClass: typeof Agent;
	export default AgentClass;
}

declare module 'undici/lib/dispatcher/dispatcher.js' {
	import type {Dispatcher} from 'undici';
	const DispatcherClass: typeof Dispatcher;
	export default DispatcherClass;
}

declare module 'undici/lib/api/index.js' {
	const api: Record<string, unknown>;
	export default api;
}

declare module 'undici/lib/core/errors.js' {
	import type {errors} from 'undici';
	const errorClasses: typeof errors;
	export default errorClasses;
}

declare module 'undici/lib/interceptor/redirect.js' {
	import type {interceptors} from 'undici';
	const redirect: typeof interceptors.redirect;
	export default redirect;
}
