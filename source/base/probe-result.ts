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
	  }
	| {readonly ok: false; readonly latencyMs: number; readonly status?: number; readonly error: string};
