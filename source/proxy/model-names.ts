/**
 * Model names as clients write them, matched to the names channels configure. Clients add suffixes
 * a channel never lists: Claude Code's context-window tag (`claude-sonnet-4-5[1m]`) and dated
 * snapshots (`claude-sonnet-4-5-20250929`, `gpt-4o-2024-08-06`). An exact name always wins; the
 * upstream name sent is the channel's, never the client's suffix.
 */

/** `[1m]`-style tags at the end of a name. */
const bracketTag = /\[[^\]]*\]$/;
/** A dated snapshot: `-20250929`, `-2024-08-06`, `@20250929`. */
const dateTag = /(?:[-@]\d{8}|-\d{4}-\d{2}-\d{2})$/;

export function withoutTags(model: string): string {
	return model.trim().replace(bracketTag, '').trim();
}

export function withoutDate(model: string): string {
	return withoutTags(model).replace(dateTag, '');
}

/**
 * How well a configured name matches what the client asked: 3 exact, 2 equal without a `[…]` tag,
 * 1 equal once dates are dropped on both sides, 0 no match.
 */
export function nameMatch(configured: string, asked: string): 0 | 1 | 2 | 3 {
	if (configured === asked) return 3;
	if (configured === withoutTags(asked)) return 2;
	return withoutDate(configured) === withoutDate(asked) ? 1 : 0;
}
