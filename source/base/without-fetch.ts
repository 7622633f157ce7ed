/**
 * Ink lays out with yoga, whose WebAssembly loader (emscripten's) gets its own bytes with `fetch`
 * whenever `fetch` is a function — though they are in the module already, as base64. In Node that
 * first touch of `fetch` loads Node's own copy of undici, to fetch a `data:` URL: about 12 ms of the
 * TUI's start on this host, and 2 MB of heap the UI thread then keeps. While the UI's modules load,
 * `fetch` is hidden (the loader sees no function and decodes the base64 itself), and then put back
 * as it was — still unloaded, for anything that does want it later.
 */
export async function withoutFetch<T>(load: () => Promise<T>): Promise<T> {
	const original = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
	if (!original?.configurable) return load();
	Object.defineProperty(globalThis, 'fetch', {value: undefined, configurable: true, writable: true});
	try {
		return await load();
	} finally {
		Object.defineProperty(globalThis, 'fetch', original);
	}
}
