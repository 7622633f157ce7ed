/**
 * React's development build cost the TUI half its time, and its warnings would be written over the
 * TUI's screen. The build fixes NODE_ENV as "production" in the bundle, so the built CLI carries
 * React's production build only, whatever NODE_ENV the user's shell exports; from the sources, the CLI
 * sets NODE_ENV=production before React loads unless the user set it. Checked on the real build.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {cliArgs} from '../helpers/cli.js';
import {builtScripts, builtSources, dist} from '../helpers/dist.js';

const reportOnExit = `data:text/javascript,process.on('exit', () => process.stderr.write('NODE_ENV=' + process.env.NODE_ENV + '\\n'))`;

function nodeEnvOf(env: Record<string, string | undefined>): string {
	const ran = spawnSync(process.execPath, ['--import', reportOnExit, ...cliArgs, '--version'], {env: {...process.env, ...env}, encoding: 'utf8'});
	assert.equal(ran.status, 0, ran.stderr);
	return /NODE_ENV=(\S+)/.exec(ran.stderr)?.[1] ?? '';
}

test('the CLI sets NODE_ENV=production unless NODE_ENV says otherwise', () => {
	assert.equal(nodeEnvOf({NODE_ENV: undefined}), 'production');
	assert.equal(nodeEnvOf({NODE_ENV: 'development'}), 'development');
});

test('the build holds React\'s production build only, and no NODE_ENV test a shell could switch', () => {
	const chunks = builtScripts();
	const sources = builtSources();
	assert.ok(sources.some(source => /node_modules\/react-reconciler\/cjs\/react-reconciler\.production\.js$/.test(source)), 'the reconciler is bundled');
	assert.deepEqual(sources.filter(source => /node_modules\/(react|react-reconciler|scheduler)\/.*development/.test(source)), []);
	for (const name of chunks) assert.doesNotMatch(readFileSync(`${dist}${name}`, 'utf8'), /process\.env\.NODE_ENV\b/, `${name} reads NODE_ENV at run time`);
});
