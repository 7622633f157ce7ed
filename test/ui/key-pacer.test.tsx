/** @jsxRuntime automatic @jsxImportSource react */
/**
 * Keys that reach the app together — a paste with Enter, tmux send-keys, a fast typist on a busy
 * machine — through the same stdin the app gives Ink: a whole form arriving in one chunk creates
 * the right key, and the pacer hands Ink each key only after the one before was rendered.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {EventEmitter} from 'node:events';
import {render} from 'ink';
import {addChannel} from '../../source/services/channels.js';
import {KeysSettled} from '../../source/ui/key-pacer.js';
import {pacedStdin} from '../../source/ui/paced-stdin.js';
import {KeysPane} from '../../source/ui/panes/keys-pane.js';
import {fakeClipboard, frameWith, keys, recordedActions} from './helpers.js';

/** A terminal's input: what is written is read back in one chunk, as from a tty. */
class Terminal extends EventEmitter {
	readonly isTTY = true;
	raw = false;
	private data: string | null = null;
	write(chunk: string) {
		this.data = chunk;
		this.emit('readable');
	}
	read() {
		const chunk = this.data;
		this.data = null;
		return chunk;
	}
	setRawMode(mode: boolean) {
		this.raw = mode;
	}
	setEncoding() {}
	ref() {}
	unref() {}
}

class Screen extends EventEmitter {
	readonly columns = 100;
	frame = '';
	write = (frame: string) => {
		this.frame = frame;
	};
}

test('a whole form typed into the terminal in one chunk creates the key it describes', async () => {
	const real = await recordedActions();
	const terminal = new Terminal();
	const screen = new Screen();
	const input = pacedStdin(terminal);
	try {
		const channel = await addChannel(real.store, {name: 'openai', format: 'openai', baseUrl: 'https://api.openai.com/v1', models: 'gpt-4o,gpt-4o-mini'});
		const pane = <KeysPane keys={[]} channels={[channel]} lastUsed={new Map()} requests={new Map()} actions={real.actions} clipboard={fakeClipboard()} onStatus={() => {}} onCapture={() => {}} active width={100} height={20} />;
		const app = render(<>{pane}<KeysSettled pacer={input.pacer} /></>, {stdout: screen as unknown as NodeJS.WriteStream, stdin: input.stdin, debug: true, exitOnCtrlC: false, patchConsole: false});
		assert.equal(terminal.raw, true, 'raw mode reaches the real terminal');
		// n, name + Enter, description + Enter, models: ↓ Space Enter, channels: Space Enter, expiry: ↓ ↓ Enter,
		// limits: ↓ Enter, 60 requests a minute, a budget of 5 (the period: ↑ ↑ from month to day), warn at 90 %, then submit.
		const limits = [keys.down, keys.enter, '60', keys.enter, keys.enter, keys.enter, keys.enter, '5', keys.enter, keys.up, keys.up, keys.enter, '90', keys.enter];
		terminal.write(['n', 'laptop', keys.enter, 'dev', keys.enter, keys.down, keys.space, keys.enter, keys.space, keys.enter, keys.down, keys.down, keys.enter, ...limits, keys.enter].join(''));
		await frameWith(() => screen.frame, 'Key "laptop" created', 15_000); // slow only on a busy machine
		assert.deepEqual(real.calls[0]!.args[0], {name: 'laptop', description: 'dev', models: ['gpt-4o-mini'], channels: [channel.id], expiresIn: '7d', expiresAt: undefined, rpm: '60', budget: '5/day', budgetWarn: '90'});
		app.unmount();
		assert.equal(terminal.raw, false);
	} finally {
		await real.close();
	}
});
