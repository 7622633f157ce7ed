/**
 * Running an action from a pane and telling the user how it went: the result goes to the status
 * bar, a failure's message too (service errors already say what to do next).
 */
import {copyMessage, type ClipboardPort} from './clipboard.js';
import {errorText} from './text.js';
import type {StatusMessage} from './theme.js';

export type Report = (message: StatusMessage) => void;

export async function attempt<T>(report: Report, work: () => Promise<T>, success: (result: T) => string): Promise<T | undefined> {
	try {
		const result = await work();
		report({kind: 'ok', text: success(result)});
		return result;
	} catch (error) {
		report({kind: 'error', text: errorText(error)});
		return undefined;
	}
}

export async function copyWithReport(clipboard: ClipboardPort, text: string, what: string, report: Report): Promise<void> {
	try {
		report(copyMessage(what, await clipboard.copy(text)));
	} catch (error) {
		report({kind: 'error', text: `Could not copy ${what}: ${errorText(error)}. Select the text on screen with the mouse instead.`});
	}
}
