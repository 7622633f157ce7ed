/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Keys that reach the app together — a paste with Enter, tmux send-keys, a fast typist on a busy
 * machine — read from the terminal as the app reads it (the keyboard in raw mode, Ink given an
 * input of its own): keys typed before the form they belong to is on screen land in it.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import {PassThrough} from 'node:stream';
import {render} from 'ink';
import {addChannel} from '../../source/services/channels.js';
import {Keyboard} from '../../source/ui/keyboard.js';
import {KeypressProvider} from '../../source/ui/hooks/use-keypress.js';
import {KeysPane} from '../../source/ui/panes/keys-pane.js';
import {fakeClipboard, frameWith, keys, recordedActions} from './helpers.js';

/** A terminal's input: what is written is read back in one chunk, as from a tty. */
class Terminal extends EventEmitter {
	readonly isTTY = true;
	raw = false;
	write(chunk: string) {
		this.emit('data', chunk);
	}
	setRawMode(mode: boolean) {
		this.raw = mode;
	}
	setEncoding() {}
	resume() {}
	pause() {}
}

class Screen extends EventEmitter {
	readonly columns = 100;
	frame = '';
	write = (frame: string) => {
		this.frame = frame;
	};
}

async function withKeysPane(run: (terminal: Terminal, screen: Screen, real: Awaited<ReturnType<typeof recordedActions>>, channelId: string) => Promise<void>) {
	const real = await recordedActions();
	const terminal = new Terminal();
	const screen = new Screen();
	const keyboard = new Keyboard();
	const detach = keyboard.attach(terminal);
	try {
		const channel = await addChannel(real.store, {name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o,gpt-4o-mini'});
		const pane = <KeysPane keys={[]} channels={[channel]} lastUsed={new Map()} requests={new Map()} actions={real.actions} clipboard={fakeClipboard()} onStatus={() => {}} onCapture={() => {}} active width={100} height={20} />;
		const app = render(<KeypressProvider keyboard={keyboard}>{pane}</KeypressProvider>, {stdout: screen as unknown as NodeJS.WriteStream, stdin: new PassThrough() as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false});
		assert.equal(terminal.raw, true, 'the keyboard, not Ink, has the terminal in raw mode');
		await run(terminal, screen, real, channel.id);
		app.unmount();
	} finally {
		detach();
		await real.close();
	}
	assert.equal(terminal.raw, false);
}

test('n, a name and Enter in one chunk: the keys after n wait for the form, then go into it', async () => {
	await withKeysPane(async (terminal, screen, real) => {
		terminal.write(`nlaptop${keys.enter}dev${keys.tab}${keys.tab}${keys.tab}${keys.tab}${keys.tab}${keys.tab}${keys.tab}${keys.tab}`);
		await frameWith(() => screen.frame, 'Enter submits'); // on the button
		terminal.write(keys.enter + keys.enter); // a double Enter on the button submits once
		await frameWith(() => screen.frame, 'Key "laptop" created');
		assert.deepEqual(real.calls[0]!.args[0], {name: 'laptop', description: 'dev', models: [], channels: [], expiresIn: undefined, expiresAt: undefined});
		assert.equal(real.calls.filter(call => call.name === 'createKey').length, 1);
	});
});

test('a whole form typed into the terminal in one chunk creates the key it describes', async () => {
	await withKeysPane(async (terminal, screen, real, channelId) => {
		// n, name + Enter, description + Enter, models: ↓ Space Enter, channels: Space Enter, expiry: ↓ ↓ Enter,
		// limits: ↓ Enter, 60 requests a minute, a budget of 5 (the period: ↑ ↑ from month to day), warn at 90 %, then submit.
		const limits = [keys.down, keys.enter, '60', keys.enter, keys.enter, keys.enter, keys.enter, '5', keys.enter, keys.up, keys.up, keys.enter, '90', keys.enter];
		terminal.write(['n', 'laptop', keys.enter, 'dev', keys.enter, keys.down, keys.space, keys.enter, keys.space, keys.enter, keys.down, keys.down, keys.enter, ...limits, keys.enter].join(''));
		await frameWith(() => screen.frame, 'Key "laptop" created', 15_000); // slow only on a busy machine
		assert.deepEqual(real.calls[0]!.args[0], {name: 'laptop', description: 'dev', models: ['gpt-4o-mini'], channels: [channelId], expiresIn: '7d', expiresAt: undefined, rpm: '60', budget: '5/day', budgetWarn: '90'});
	});
});
