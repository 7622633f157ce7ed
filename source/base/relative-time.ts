/** "in 3d", "in 5h", "2m ago" */
export function relative(iso: string | null, now = Date.now()): string {
	if (!iso) return '-';
	const delta = Date.parse(iso) - now;
	const abs = Math.abs(delta);
	const [value, unit] = abs >= 86_400_000 ? [abs / 86_400_000, 'd'] : abs >= 3_600_000 ? [abs / 3_600_000, 'h'] : abs >= 60_000 ? [abs / 60_000, 'm'] : [abs / 1000, 's'];
	const text = `${Math.floor(value)}${unit}`;
	return delta >= 0 ? `in ${text}` : `${text} ago`;
}
