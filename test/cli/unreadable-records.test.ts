/**
 * A key or channel record this version cannot read (written by a newer gateway-tui, or edited by
 * hand) stops every command that lists them — and the error names the command that removes it, which
 * works although the record cannot be read. Other records are untouched.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {rmSync} from 'node:fs';
import {assertRefused, runCli} from '../helpers/cli.js';
import {tempHome} from '../helpers/gateway.js';
import {Store} from '../../source/store/index.js';

async function writeRaw(home: string, namespace: 'keys' | 'channels', id: string): Promise<void> {
	const store = await Store.open(home, {home});
	await store.raw(namespace).set(id, {id, v: 2, shape: 'from a newer version'});
	await store.close();
}

test('an unreadable channel: the error says how to remove it, and channels remove ID does, leaving the others', async () => {
	const home = tempHome();
	const env = {GATEWAY_TUI_HOME: home};
	try {
		assert.equal((await runCli(['channels', 'add', '--name', 'kept', '--format', 'openai', '--base-url', 'https://api.openai.com/v1', '--api-key', 'sk-kept-0123456789', '--models', 'gpt-4o'], env)).code, 0);
		await writeRaw(home, 'channels', 'ch_future');
		assertRefused(await runCli(['channels', 'list'], env), /channel "ch_future" in the store is not valid \(.*\)\. It was written by a newer gateway-tui \(upgrade this one\) or edited by hand: restore a backup, or remove it with `gateway-tui channels remove ch_future`\./);
		const removed = await runCli(['channels', 'remove', 'ch_future'], env);
		assert.equal(removed.code, 0, removed.stderr);
		assert.equal(removed.stdout.trim(), 'Removed the unreadable channel "ch_future".');
		const listed = await runCli(['channels', 'list', '--json'], env);
		assert.equal(listed.code, 0, listed.stderr);
		assert.deepEqual((JSON.parse(listed.stdout) as Array<{name: string}>).map(channel => channel.name), ['kept']);
		// A name that is no record's id is still refused as before.
		await writeRaw(home, 'channels', 'ch_future_2');
		assertRefused(await runCli(['channels', 'remove', 'kept'], env), /channel "ch_future_2" in the store is not valid/);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});

test('an unreadable key: keys delete ID removes it (and its activity), --json says it was unreadable', async () => {
	const home = tempHome();
	const env = {GATEWAY_TUI_HOME: home};
	try {
		assert.equal((await runCli(['keys', 'create', '--name', 'kept'], env)).code, 0);
		await writeRaw(home, 'keys', 'key_future');
		assertRefused(await runCli(['keys', 'list'], env), /key "key_future" in the store is not valid .*remove it with `gateway-tui keys delete key_future`\./);
		const deleted = await runCli(['keys', 'delete', 'key_future', '--json'], env);
		assert.equal(deleted.code, 0, deleted.stderr);
		assert.deepEqual(JSON.parse(deleted.stdout), {id: 'key_future', deleted: true, readable: false});
		const listed = await runCli(['keys', 'list', '--json'], env);
		assert.equal(listed.code, 0, listed.stderr);
		assert.deepEqual((JSON.parse(listed.stdout) as Array<{name: string}>).map(key => key.name), ['kept']);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});
