// @ts-nocheck
import {startFakeProvider} from '../helpers/fake-providers.js';
const fakes = await Promise.all((['openai', 'anthropic', 'gemini'] as const).map(f => startFakeProvider(f, {models: [`${f}-model`, 'gpt-4o', 'claude-sonnet-5-5', 'gemini-3.5-flash', 'gpt-5.4']})));
const reply = {text: 'Here is a longer answer from the fake provider, streamed in pieces so the log shows it arriving over time. '.repeat(3), chunks: 20, chunkDelayMs: 80, usage: {input: 1200, output: 80}};
for (const fake of fakes) { fake.enqueue(...Array.from({length: 5000}, () => reply)); }
for (const fake of fakes) console.log(JSON.stringify({format: fake.format, url: fake.url, apiKey: fake.apiKey}));
setInterval(() => {}, 1 << 30);
