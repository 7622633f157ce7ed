/**
 * The services word their refusals for the command line (`Invalid --rpm "abc"`, `pass --models …`);
 * a form names its fields instead. Known sentences get a form's wording; any other `--flag` becomes
 * the field's label.
 */

/** Command-line flag → the form field's label. */
const labels: Readonly<Record<string, string>> = {
	name: 'Name',
	format: 'Format',
	'base-url': 'Base URL',
	'api-key': 'API key',
	models: 'Models',
	price: 'Prices',
	priority: 'Priority',
	rpm: 'Requests/min',
	rpd: 'Requests/day',
	tpm: 'Tokens/min',
	tpd: 'Tokens/day',
	budget: 'Budget USD',
	'budget-warn': 'Warn at %',
	'expires-at': 'Expiry date',
	'expires-in': 'Expires',
	'never-expires': 'Expires',
};

const sentences: ReadonlyArray<readonly [RegExp, string]> = [
	[/^A (key|channel) needs a name: pass --name NAME\.$/, 'Name: a $1 needs a name. Type one.'],
	[/^The model list is empty: pass --models .*$/, 'Models: type at least one model, e.g. gpt-4o, fast=gpt-4o-mini.'],
	// The form joins the amount typed and the period chosen (`5x/month`): the refusal quotes what was typed.
	[/^Invalid --budget "(.*?)(?:\/(?:day|week|month|total))?": .*$/, 'Budget USD: "$1" is not an amount. Type one, e.g. 20 (the period is chosen below), or leave it empty for no budget.'],
	[/^Invalid --budget-warn "(.*)": .*$/, 'Warn at %: "$1" is not a percentage. Type one from 1 to 100, e.g. 80.'],
	[/^--budget-warn needs a budget: .*$/, 'Warn at %: there is no budget to warn about. Fill in Budget USD, or empty this field.'],
	[/^Invalid --expires-at "(.*)": .*$/, 'Expiry date: "$1" is not a date. Type one like 2026-12-31 or 2026-12-31T18:00:00Z.'],
	[/^Invalid --([a-z-]+) "(.*)": give a whole number above 0, .*$/, '$1: "$2" is not a whole number above 0. Type one, or leave the field empty for no limit.'],
	[/^Invalid priority "(.*)": give a whole number\.$/, 'Priority: "$1" is not a whole number. Type one, e.g. 0.'],
	[/^Invalid base URL "(.*)": (.*)$/, 'Base URL: "$1": $2'],
	[/^Invalid model "(.*)": (.*)$/, 'Models: "$1": $2'],
	[/^(Invalid price ".*"): (.*), e\.g\. --price (\S+) \(MODEL= clears it\)\.$/, 'Prices: $1: $2, e.g. $3.'],
	[/^(.*): price one of those, or add the model with --models\.$/, 'Prices: $1: price one of those, or add the model to Models.'],
	[/^A key named "(.*)" exists already: choose another name, or rotate it with `gateway-tui keys rotate .*`\.$/, 'Name: a key named "$1" exists already. Type another name, or Esc and R on that key in the list to give it a new secret.'],
	[/^A channel named "(.*)" exists already: choose another name, or change it with `gateway-tui channels edit .*`\.$/, 'Name: a channel named "$1" exists already. Type another name, or Esc and e on that channel in the list to change it.'],
	[/^A (key|channel) named "(.*)" exists already: choose another name\.$/, 'Name: a $1 named "$2" exists already. Type another name.'],
];

/** The message with field names where the service named command-line flags. */
export function formError(message: string): string {
	for (const [pattern, text] of sentences) {
		if (!pattern.test(message)) continue;
		return message.replace(pattern, text).replace(/^([a-z][a-z-]*):/, (_, flag: string) => `${labels[flag] ?? flag}:`);
	}
	return message.replace(/`?--([a-z][a-z-]*)`?/g, (whole, flag: string) => (labels[flag] ? `the field "${labels[flag]}"` : whole));
}
