/**
 * Numbers as people read them: digits in groups of three (`2,000,000`), dollars with cents. Not
 * `toLocaleString`, whose first call builds ICU's formatter (milliseconds of `keys list`), and
 * whose separators would follow the machine's locale where the rest of the output is English.
 */

/** `184320` → `184,320`. */
export function groupDigits(count: number): string {
	return grouped(String(count));
}

/** `1234.567` → `$1,234.57`. */
export function dollars(usd: number): string {
	const [whole, cents] = usd.toFixed(2).split('.');
	return `$${grouped(whole!)}.${cents}`;
}

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');
