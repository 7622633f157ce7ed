/** Store URLs: what is accepted, and that a password never shows in a message. */
import assert from 'node:assert/strict';
import {test} from 'node:test';
import {maskStoreUrl, parseStoreUrl, scrubSecrets} from '../../source/store/store-url.js';
import {Store} from '../../source/store/index.js';
import {UserError} from '../../source/base/errors.js';

test('passwords are masked, users and hosts kept', () => {
	assert.equal(maskStoreUrl('redis://user:s3cret@host:6379'), 'redis://user:****@host:6379');
	assert.equal(maskStoreUrl('redis://:s3cret@host:6379/2'), 'redis://:****@host:6379/2');
	assert.equal(maskStoreUrl('rediss://default:p@ss@word@cache.example.com:6380'), 'rediss://default:****@cache.example.com:6380');
	assert.equal(maskStoreUrl('postgres://alice:pw@db.internal:5432/gateway?sslmode=require'), 'postgres://alice:****@db.internal:5432/gateway?sslmode=require');
	assert.equal(maskStoreUrl('postgresql://alice@db/gateway?password=pw&sslmode=require'), 'postgresql://alice@db/gateway?password=****&sslmode=require');
	assert.equal(maskStoreUrl('redis://host:6379'), 'redis://host:6379');
	assert.equal(maskStoreUrl('sqlite:///home/me@work/gateway.sqlite'), 'sqlite:///home/me@work/gateway.sqlite');
});

test('driver messages lose any secret of the URL', () => {
	const url = 'postgres://alice:pa%24%24@db/gateway';
	assert.equal(scrubSecrets(`connect to ${url} failed: bad password pa$$`, url), 'connect to postgres://alice:****@db/gateway failed: bad password ****');
});

test('each kind of URL is recognised; anything else is a UserError that shows the URL masked', () => {
	assert.deepEqual(parseStoreUrl('sqlite:///var/lib/gw/gateway.sqlite'), {kind: 'sqlite', url: 'sqlite:///var/lib/gw/gateway.sqlite', masked: 'sqlite:///var/lib/gw/gateway.sqlite', file: '/var/lib/gw/gateway.sqlite'});
	assert.equal(parseStoreUrl('rediss://:pw@cache:6380').kind, 'redis');
	assert.equal(parseStoreUrl('postgresql://u:pw@db/x').kind, 'postgres');
	assert.throws(() => parseStoreUrl('mysql://root:hunter2@db/x'), (error: unknown) => error instanceof UserError && /mysql:\/\/root:\*\*\*\*@db\/x is not one gateway-tui can use/.test(error.message) && !error.message.includes('hunter2'));
	assert.throws(() => parseStoreUrl('sqlite://relative/gateway.sqlite'), /does not name an absolute file path \(note the three slashes/);
	assert.throws(() => parseStoreUrl('redis:///0'), /names no host/);
	assert.throws(() => parseStoreUrl('redis://:pw@/0'), /cannot be parsed/);
});

test('a directory still opens its gateway.sqlite, so existing callers keep working', async () => {
	const {mkdtempSync} = await import('node:fs');
	const {tmpdir} = await import('node:os');
	const {join} = await import('node:path');
	const home = mkdtempSync(join(tmpdir(), 'gateway-url-test-'));
	const store = await Store.open(home);
	assert.equal(store.file, join(home, 'gateway.sqlite'));
	assert.equal(store.home, home);
	await store.close();
	const same = await Store.open(`sqlite://${join(home, 'gateway.sqlite')}`);
	assert.equal(same.home, home, 'the home of a sqlite URL is the file\'s directory');
	await same.close();
});
