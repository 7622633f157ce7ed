/**
 * A deterministic random source for the tests that try many generated inputs (no flaky seeds: the
 * same seed gives the same sequence on every run): xorshift32.
 */

/** Numbers in [0, below) from `seed`. */
export function randomOf(seed: number): (below: number) => number {
	let state = seed;
	return below => {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		return (state >>> 0) % below;
	};
}
