/**
 * The system clipboard, through clipboardy (clipboard.ts says when it is used). clipboardy is an ES
 * module only, which the UI's CommonJS bundle could load only through an experimental option of
 * Node 20's: it is imported here, in tui.ts's ES module, and handed to the UI.
 */
export async function clipboardyWrite(text: string): Promise<void> {
	const {default: clipboard} = await import('clipboardy');
	await clipboard.write(text);
}
