/** What one check of a channel (its model list) found. */
export type ProbeResult =
	| {readonly ok: true; readonly latencyMs: number; readonly models: number}
	| {readonly ok: false; readonly latencyMs: number; readonly status?: number; readonly error: string};
