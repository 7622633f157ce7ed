/**
 * Reading and writing the tools' config files safely: a backup that never overwrites an earlier one,
 * and writes that are atomic (a temp file in the same directory, then rename) and keep the file's
 * mode. A config file that is a symlink (dotfile managers) stays one: the write goes to its target.
 */
import {randomBytes} from 'node:crypto';
import {constants} from 'node:fs';
import {chmod, copyFile, mkdir, open, readFile, realpath, rename, rm, rmdir, stat} from 'node:fs/promises';
import {basename, dirname, join} from 'node:path';
import {UserError} from '../../base/errors.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** The file's text, or null when it does not exist. */
export async function readText(file: string): Promise<string | null> {
	try {
		return await readFile(file, 'utf8');
	} catch (error) {
		if (isMissing(error)) return null;
		throw new UserError(`Cannot read ${file}: ${(error as Error).message}. Check its permissions and run again.`, {cause: error});
	}
}

export async function exists(path: string): Promise<boolean> {
	try {
		await stat(path);
		return true;
	} catch {
		return false;
	}
}

function stamp(date: Date): string {
	return date.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
}

/**
 * Copies `file` to `<file>.bak` (mode 0600: it may hold the user's own keys), or, when that exists, to `<file>.<timestamp>.bak` (then `-2`, `-3`…):
 * an earlier backup is never overwritten (COPYFILE_EXCL makes sure of it).
 */
export async function backup(file: string, now = new Date()): Promise<string> {
	const candidates = [`${file}.bak`, `${file}.${stamp(now)}.bak`];
	for (let attempt = 0; attempt < 100; attempt++) {
		const target = candidates[attempt] ?? `${file}.${stamp(now)}-${attempt}.bak`;
		try {
			await copyFile(file, target, constants.COPYFILE_EXCL);
			await chmod(target, 0o600);
			return target;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
				throw new UserError(`Cannot back up ${file} to ${target}: ${(error as Error).message}. Nothing was changed.`, {cause: error});
			}
		}
	}
	throw new UserError(`Cannot find a free name for a backup of ${file}: remove old ${basename(file)}.*.bak files and run again.`);
}

async function target(file: string): Promise<string> {
	try {
		return await realpath(file);
	} catch (error) {
		if (isMissing(error)) return file;
		throw error;
	}
}

/** Writes `text` atomically; an existing file keeps its mode, a new one gets `mode`. */
export async function writeAtomic(file: string, text: string, mode = 0o600): Promise<void> {
	const destination = await target(file);
	const directory = dirname(destination);
	const temp = join(directory, `.${basename(destination)}.${randomBytes(4).toString('hex')}.tmp`);
	try {
		await mkdir(directory, {recursive: true, mode: 0o700});
		const keep = await stat(destination).then(
			info => info.mode & 0o7777,
			() => mode,
		);
		const handle = await open(temp, 'wx', keep);
		try {
			await handle.writeFile(text, 'utf8');
			await handle.sync();
		} finally {
			await handle.close();
		}
		await chmod(temp, keep);
		await rename(temp, destination);
	} catch (error) {
		await rm(temp, {force: true});
		throw new UserError(`Cannot write ${file}: ${(error as Error).message}. Check the permissions of ${directory}.`, {cause: error});
	}
}

export async function removeFile(file: string): Promise<void> {
	await rm(file, {force: true});
}

/** Removes a directory only when it is empty (a directory apply created). */
export async function removeIfEmpty(directory: string): Promise<boolean> {
	try {
		await rmdir(directory);
		return true;
	} catch {
		return false;
	}
}
