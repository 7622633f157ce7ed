/**
 * React's development build cost the TUI half its time: the CLI sets NODE_ENV=production before React
 * loads, unless the user set NODE_ENV. Checked on the real CLI, by a preload that reports NODE_ENV on exit.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {cliArgs} from '../helpers/cli.js';

const reportOnExit = `data:text/javascript,process.on('exit', () => process.stderr.write('NODE_ENV=' + process.env.NODE_ENV + '\\n'))`;

function nodeEnvOf(env: Record<string, string | undefined>): string {
	const ran = spawnSync(process.execPath, ['--import', reportOnExit, ...cliArgs, '--version'], {env: {...process.env, ...env}, encoding: 'utf8'});
	assert.equal(ran.status, 0, ran.stderr);
	return /NODE_ENV=(\S+)/.exec(ran.stderr)?.[1] ?? '';
}

test('the CLI runs React in production unless NODE_ENV says otherwise', () => {
	assert.equal(nodeEnvOf({NODE_ENV: undefined}), 'production');
	assert.equal(nodeEnvOf({NODE_ENV: 'development'}), 'development');
});
