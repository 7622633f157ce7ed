/** `serve --limits-fail`: open or closed, anything else refused in one line before anything starts. */
import {test} from 'node:test';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {assertRefused, runCli} from '../helpers/cli.js';

test('serve --limits-fail takes open or closed', async () => {
	const home = mkdtempSync(join(tmpdir(), 'gateway-tui-flags-'));
	try {
		assertRefused(await runCli(['serve', '--port', '0', '--limits-fail', 'maybe', '--home', home]), /Invalid --limits-fail "maybe": use open .* or closed/);
	} finally {
		rmSync(home, {recursive: true, force: true});
	}
});
