/**
 * The terminal's size, updated on resize. Streams that are not terminals (tests) have no size:
 * 100×24 then, so layouts are predictable.
 */
import {useEffect, useState} from 'react';
import {useStdout} from 'ink';

export type Size = {readonly columns: number; readonly rows: number};

export function useTerminalSize(): Size {
	const {stdout} = useStdout();
	const read = (): Size => ({columns: stdout.columns || 100, rows: stdout.rows || 24});
	const [size, setSize] = useState(read);
	useEffect(() => {
		const update = () => setSize(read());
		stdout.on('resize', update);
		return () => {
			stdout.off('resize', update);
		};
	}, [stdout]);
	return size;
}
