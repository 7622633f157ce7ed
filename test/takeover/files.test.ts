import {test} from 'node:test';
import assert from 'node:assert/strict';
import {lstatSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {dotenvDoc} from '../../source/services/takeover/dotenv-doc.js';
import {backup, writeAtomic} from '../../source/services/takeover/files.js';
import {jsonDoc} from '../../source/services/takeover/json-doc.js';
import {tempHome} from '../helpers/gateway.js';

test('backup: <file>.bak first, then a timestamped name; an earlier backup is never overwritten', async () => {
	const dir = tempHome();
	const file = join(dir, 'settings.json');
	writeFileSync(file, 'one');
	const now = new Date('2026-03-04T05:06:07.890Z');
	assert.equal(await backup(file, now), `${file}.bak`);
	writeFileSync(file, 'two');
	assert.equal(await backup(file, now), `${file}.2026-03-04T05-06-07Z.bak`);
	writeFileSync(file, 'three');
	assert.equal(await backup(file, now), `${file}.2026-03-04T05-06-07Z-2.bak`);
	assert.deepEqual(
		['.bak', '.2026-03-04T05-06-07Z.bak', '.2026-03-04T05-06-07Z-2.bak'].map(suffix => readFileSync(`${file}${suffix}`, 'utf8')),
		['one', 'two', 'three'],
	);
	rmSync(dir, {recursive: true});
});

test('writeAtomic keeps the mode, writes through a symlink, and leaves no temp file', async () => {
	const dir = tempHome();
	const real = join(dir, 'dotfiles-config.toml');
	const link = join(dir, 'config.toml');
	writeFileSync(real, 'a = 1\n', {mode: 0o640});
	symlinkSync(real, link);
	await writeAtomic(link, 'a = 2\n');
	assert.ok(lstatSync(link).isSymbolicLink(), 'the link stays a link');
	assert.equal(readFileSync(real, 'utf8'), 'a = 2\n');
	assert.equal(statSync(real).mode & 0o777, 0o640);
	await writeAtomic(join(dir, 'new.json'), '{}\n');
	assert.equal(statSync(join(dir, 'new.json')).mode & 0o777, 0o600);
	assert.deepEqual(readdirSync(dir).sort(), ['config.toml', 'dotfiles-config.toml', 'new.json']);
	rmSync(dir, {recursive: true});
});

test('.env: read like dotenv (export, quotes, comments, last one wins); values are quoted only when needed', () => {
	const text = 'export A=1\nB = two # note\nC=\'single # not a comment\'\nD="x\\ny"\nA=last\nE: colon\n';
	const doc = dotenvDoc('.env', text);
	assert.deepEqual(['A', 'B', 'C', 'D', 'E', 'F'].map(name => doc.get([name])), ['last', 'two', 'single # not a comment', 'x\ny', 'colon', undefined]);
	doc.set(['A'], 'new');
	doc.set(['F'], 'has space');
	doc.set(['G'], "it's");
	assert.equal(doc.render(), 'export A=1\nB = two # note\nC=\'single # not a comment\'\nD="x\\ny"\nA=new\nE: colon\nF=\'has space\'\nG="it\'s"\n');
	doc.delete(['F']);
	doc.delete(['G']);
	doc.set(['A'], 'last', 'A=last');
	assert.equal(doc.render(), text);
	assert.equal(dotenvDoc('.env', 'X=1\r\n').render(), 'X=1\r\n');
});

test('JSON: tab indentation and a missing final newline are kept', () => {
	const doc = jsonDoc('s.json', '{\n\t"a": 1\n}', {comments: false});
	doc.set(['b', 'c'], 'd');
	assert.equal(doc.render(), '{\n\t"a": 1,\n\t"b": {\n\t\t"c": "d"\n\t}\n}');
	assert.equal(doc.changed, true);
	assert.equal(jsonDoc('s.json', '', {comments: false}).render(), '{}\n');
});
