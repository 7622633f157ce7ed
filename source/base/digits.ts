/**
 * Numbers as people read them: digits in groups of three (`2,000,000`), dollars with cents. Not
 * `toLocaleString`, whose first call builds ICU's formatter (milliseconds of `keys list`), and
 * whose separators would follow the machine's locale where the rest of the output is English.
 */

/** `184320` → `184,320`. */
export function groupDigits(count: number): string {
	return grouped(String(count));
}

/** `1234.567` → `$1,234.57` (`decimals` 4: `$1,234.5670`). */
export function dollars(usd: number, decimals: 2 | 4 = 2): string {
	const [whole, fraction] = usd.toFixed(decimals).split('.');
	return `$${grouped(whole!)}.${fraction}`;
}

/**
 * An amount spent against a budget, and the budget itself: in cents, or to four decimals where the
 * budget is not a whole number of cents — `$0.0031 of $0.0050`, where cents would say `$0.00 of $0.01`.
 */
export function budgetDollars(usd: number, budgetUsd: number): string {
	const cents = budgetUsd * 100;
	return dollars(usd, Math.abs(cents - Math.round(cents)) > 1e-6 ? 4 : 2);
}

const grouped = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');
