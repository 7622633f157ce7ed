/**
 * A terminal screen as `tmux capture-pane -e -p` prints it (text with SGR colour sequences) turned
 * into an SVG of monospace text: one <rect> per background run, one <tspan> per style run.
 */
type Style = {fg: string | null; bg: string | null; bold: boolean; dim: boolean; inverse: boolean};

const palette = ['#1d1f21', '#e06c75', '#98c379', '#e5c07b', '#61afef', '#c678dd', '#56b6c2', '#d7dae0', '#5c6370', '#ff7b86', '#b5e890', '#ffd580', '#82c4ff', '#e09cf5', '#7fdbe6', '#ffffff'];
const background = '#1d1f21';
const foreground = '#d7dae0';

function xterm256(index: number): string {
	if (index < 16) return palette[index]!;
	if (index >= 232) {
		const level = 8 + (index - 232) * 10;
		return `rgb(${level},${level},${level})`;
	}
	const cube = index - 16;
	const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
	return `rgb(${level(Math.floor(cube / 36))},${level(Math.floor(cube / 6) % 6)},${level(cube % 6)})`;
}

function apply(style: Style, codes: number[]): Style {
	const next = {...style};
	for (let index = 0; index < codes.length; index++) {
		const code = codes[index]!;
		if (code === 0) Object.assign(next, {fg: null, bg: null, bold: false, dim: false, inverse: false});
		else if (code === 1) next.bold = true;
		else if (code === 2) next.dim = true;
		else if (code === 22) Object.assign(next, {bold: false, dim: false});
		else if (code === 7) next.inverse = true;
		else if (code === 27) next.inverse = false;
		else if (code >= 30 && code <= 37) next.fg = palette[code - 30]!;
		else if (code >= 90 && code <= 97) next.fg = palette[code - 90 + 8]!;
		else if (code === 39) next.fg = null;
		else if (code >= 40 && code <= 47) next.bg = palette[code - 40]!;
		else if (code >= 100 && code <= 107) next.bg = palette[code - 100 + 8]!;
		else if (code === 49) next.bg = null;
		else if ((code === 38 || code === 48) && codes[index + 1] === 5) {
			next[code === 38 ? 'fg' : 'bg'] = xterm256(codes[index + 2] ?? 0);
			index += 2;
		} else if ((code === 38 || code === 48) && codes[index + 1] === 2) {
			next[code === 38 ? 'fg' : 'bg'] = `rgb(${codes[index + 2]},${codes[index + 3]},${codes[index + 4]})`;
			index += 4;
		}
	}
	return next;
}

type Run = {text: string; column: number; style: Style};

function runs(line: string): Run[] {
	const out: Run[] = [];
	let style: Style = {fg: null, bg: null, bold: false, dim: false, inverse: false};
	let column = 0;
	for (const part of line.split(/(\u001B\[[\d;]*m)/)) {
		const sgr = /^\u001B\[([\d;]*)m$/.exec(part);
		if (sgr) {
			style = apply(style, (sgr[1] || '0').split(';').map(Number));
			continue;
		}
		const text = part.replaceAll(/\u001B\[[\d;?]*[A-Za-z]/g, '');
		if (!text) continue;
		out.push({text, column, style});
		column += [...text].length;
	}
	return out;
}

const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function ansiToSvg(screen: string, options: {columns: number; rows: number; title: string}): string {
	const cell = {width: 8.4, height: 18};
	const pad = 12;
	const width = Math.ceil(options.columns * cell.width + pad * 2);
	const height = Math.ceil(options.rows * cell.height + pad * 2);
	const rects: string[] = [];
	const texts: string[] = [];
	screen
		.split('\n')
		.slice(0, options.rows)
		.forEach((line, row) => {
			const y = pad + row * cell.height;
			const spans: string[] = [];
			for (const run of runs(line)) {
				const fg = run.style.inverse ? (run.style.bg ?? background) : (run.style.fg ?? foreground);
				const bg = run.style.inverse ? (run.style.fg ?? foreground) : run.style.bg;
				const x = (pad + run.column * cell.width).toFixed(1);
				if (bg) rects.push(`<rect x="${x}" y="${y}" width="${(run.text.length * cell.width).toFixed(1)}" height="${cell.height}" fill="${bg}"/>`);
				const weight = run.style.bold ? ' font-weight="bold"' : '';
				const opacity = run.style.dim ? ' fill-opacity="0.6"' : '';
				spans.push(`<tspan x="${x}" fill="${fg}"${weight}${opacity}>${escapeXml(run.text)}</tspan>`);
			}
			if (spans.length) texts.push(`<text y="${(y + cell.height * 0.75).toFixed(1)}">${spans.join('')}</text>`);
		});
	return [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(options.title)}">`,
		`<title>${escapeXml(options.title)}</title>`,
		`<rect width="100%" height="100%" rx="8" fill="${background}"/>`,
		...rects,
		`<g font-family="'DejaVu Sans Mono', 'SFMono-Regular', Menlo, Consolas, monospace" font-size="14" xml:space="preserve">`,
		...texts,
		'</g>',
		'</svg>',
		'',
	].join('\n');
}
