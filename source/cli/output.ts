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
