/**
 * How commands print: `--json` → one JSON document on stdout; otherwise an aligned plain table
 * (no colours, so output can be piped and grepped).
 */
export function printJson(value: unknown): void {
	process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function table(rows: ReadonlyArray<Readonly<Record<string, string>>>, columns: readonly string[]): string {
	if (rows.length === 0) return '';
	const widths = columns.map(column => Math.max(column.length, ...rows.map(row => (row[column] ?? '').length)));
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, index) => cell.padEnd(widths[index]!))
			.join('  ')
			.trimEnd();
	return [line(columns.map(column => column.toUpperCase())), ...rows.map(row => line(columns.map(column => row[column] ?? '')))].join('\n');
}

export function print(text: string): void {
	process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** "in 3d", "in 5h", "2m ago" */
export function relative(iso: string | null, now = Date.now()): string {
	if (!iso) return '-';
	const delta = Date.parse(iso) - now;
	const abs = Math.abs(delta);
	const [value, unit] = abs >= 86_400_000 ? [abs / 86_400_000, 'd'] : abs >= 3_600_000 ? [abs / 3_600_000, 'h'] : abs >= 60_000 ? [abs / 60_000, 'm'] : [abs / 1000, 's'];
	const text = `${Math.floor(value)}${unit}`;
	return delta >= 0 ? `in ${text}` : `${text} ago`;
}
