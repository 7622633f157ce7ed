/** A model of the channel that its provider lists as deprecated, and when the provider says it retires (RFC 3339), if it says. */
export type RetiringModel = {readonly model: string; readonly retiresAt: string | null};

/** What one check of a channel (its model list) found. */
export type ProbeResult =
	| {
			readonly ok: true;
			readonly latencyMs: number;
			readonly models: number;
			/** The channel's models (upstream names) its provider's complete list does not name: retired, misspelt, or not open to the key. */
			readonly unlisted: readonly string[];
			/** The channel's models its provider lists as deprecated. */
			readonly retiring: readonly RetiringModel[];
			/** For a model unlisted or retiring: the listed models of its family the provider does not deprecate, newest first (at most three; none: no entry). */
			readonly alternatives: Readonly<Record<string, readonly string[]>>;
	  }
	| {readonly ok: false; readonly latencyMs: number; readonly status?: number; readonly error: string};

/** Who checked a channel: someone (`channels test`, the TUI's `t`) or the gateway's `--probe-every` round. */
export type TestedBy = 'test' | 'probe';

/** ` (it lists claude-sonnet-5-5, claude-sonnet-4-6)`: the provider's models of the same family, the names to move to; empty where it lists none. */
export function listsAlike(result: Extract<ProbeResult, {ok: true}>, model: string): string {
	const alike = result.alternatives[model];
	return alike && alike.length > 0 ? ` (it lists ${alike.join(', ')})` : '';
}
