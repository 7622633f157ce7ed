/** Refusals in a form name the field, never a command-line flag. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {formError} from '../../source/ui/form-errors.js';
import {Store} from '../../source/store/index.js';
import {createKey, editKey} from '../../source/services/keys.js';
import {addChannel, editChannel} from '../../source/services/channels.js';
import {tempHome} from '../helpers/gateway.js';

test('known refusals get a form\'s wording; any other flag becomes its field', () => {
	assert.equal(formError('A channel needs a name: pass --name NAME.'), 'Name: a channel needs a name. Type one.');
	assert.equal(formError('The model list is empty: pass --models with at least one model, e.g. --models gpt-4o,fast=gpt-4o-mini.'), 'Models: type at least one model, e.g. gpt-4o, fast=gpt-4o-mini.');
	assert.equal(formError('Invalid --tpd "lots": give a whole number above 0, or "none" to remove the limit.'), 'Tokens/day: "lots" is not a whole number above 0. Type one, or leave the field empty for no limit.');
	assert.equal(formError('Invalid --expires-at "soon": use an ISO-8601 date such as 2026-12-31 or 2026-12-31T18:00:00Z.'), 'Expiry date: "soon" is not a date. Type one like 2026-12-31 or 2026-12-31T18:00:00Z.');
	assert.equal(formError('Invalid --budget "5x/month": use USD/PERIOD with a period of day, week, month or total, e.g. --budget 20/month, or "none".'), 'Budget USD: "5x" is not an amount. Type one, e.g. 20 (the period is chosen below), or leave it empty for no budget.', 'what was typed, without the period the form added');
	assert.equal(formError('Invalid --budget "5/week/total": use USD/PERIOD with a period of day, week, month or total, e.g. --budget 20/month, or "none".'), 'Budget USD: "5/week" is not an amount. Type one, e.g. 20 (the period is chosen below), or leave it empty for no budget.');
	assert.equal(formError('--budget-warn needs a budget: add --budget USD/PERIOD, e.g. --budget 20/month.'), 'Warn at %: there is no budget to warn about. Fill in Budget USD, or empty this field.');
	assert.equal(
		formError('Invalid price "gpt-4o=x": use MODEL=IN/OUT or MODEL=IN/OUT/CACHED in USD per 1M tokens, e.g. --price gpt-4o=2.5/10/1.25 (MODEL= clears it).'),
		'Prices: Invalid price "gpt-4o=x": use MODEL=IN/OUT or MODEL=IN/OUT/CACHED in USD per 1M tokens, e.g. gpt-4o=2.5/10/1.25.',
	);
	assert.equal(formError('Unknown format "x": use --format openai, anthropic or gemini.'), 'Unknown format "x": use the field "Format" openai, anthropic or gemini.');
	assert.equal(formError('Invalid priority "abc": give a whole number.'), 'Priority: "abc" is not a whole number. Type one, e.g. 0.');
	assert.equal(formError('Invalid base URL "api.openai.com": give a full http(s) URL such as https://api.openai.com/v1.'), 'Base URL: "api.openai.com": give a full http(s) URL such as https://api.openai.com/v1.');
	assert.equal(formError('Invalid model "a=": use NAME or ALIAS=UPSTREAM, e.g. fast=gpt-4o-mini.'), 'Models: "a=": use NAME or ALIAS=UPSTREAM, e.g. fast=gpt-4o-mini.');
	assert.equal(formError('No flags here.'), 'No flags here.');
});

test('a name taken already, as the services word it: the form names the field and its own way out, not a command', async () => {
	const store = await Store.open(tempHome());
	try {
		const refusal = async (action: () => Promise<unknown>) => formError(await action().then(() => assert.fail('accepted'), (error: Error) => error.message));
		const laptop = await createKey(store, {name: 'laptop'});
		await createKey(store, {name: 'ci'});
		assert.equal(await refusal(() => createKey(store, {name: 'laptop'})), 'Name: a key named "laptop" exists already. Type another name, or Esc and R on that key in the list to give it a new secret.');
		assert.equal(await refusal(() => editKey(store, laptop.id, {name: 'ci'})), 'Name: a key named "ci" exists already. Type another name.');
		const channel = {format: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: 'm'} as const;
		const up = await addChannel(store, {name: 'up', ...channel});
		await addChannel(store, {name: 'down', ...channel});
		assert.equal(await refusal(() => addChannel(store, {name: 'up', ...channel})), 'Name: a channel named "up" exists already. Type another name, or Esc and e on that channel in the list to change it.');
		assert.equal(await refusal(() => editChannel(store, up.id, {name: 'down'})), 'Name: a channel named "down" exists already. Type another name.');
	} finally {
		await store.close();
	}
});
