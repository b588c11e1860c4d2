/**
 * QR codes as the CLI draws them in a terminal, read back into pixels and decoded with jsQR,
 * as a phone's camera would read the screen.
 */
import { createRequire } from 'node:module';

// jsqr is CommonJS with a default export its typings do not map under NodeNext.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/**
 * Reads a QR code drawn with half-block characters back into pixels and decodes it. Each
 * character is two modules stacked; which are dark depends on the glyph (█ ▀ ▄ or space)
 * and on the ANSI colours in force, since the edge rows draw white halves in the
 * foreground colour.
 */
export function decodeTerminalQr(text: string): string | null {
  const rows: boolean[][] = [];
  for (const line of text.split('\n')) {
    if (!/[█▀▄]/.test(line)) continue;
    let fgDark = false;
    let bgDark = false;
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    for (const token of line.match(/\x1b\[[0-9;]*m|./gu) ?? []) {
      if (token.startsWith('\x1b[')) {
        for (const code of token.slice(2, -1).split(';')) {
          if (code === '0' || code === '') {
            fgDark = false;
            bgDark = false;
          } else if (code === '30') fgDark = true;
          else if (code === '37') fgDark = false;
          else if (code === '40') bgDark = true;
          else if (code === '47') bgDark = false;
        }
        continue;
      }
      const [t, b] = token === '█' ? [fgDark, fgDark] : token === '▀' ? [fgDark, bgDark] : token === '▄' ? [bgDark, fgDark] : [bgDark, bgDark];
      top.push(t);
      bottom.push(b);
    }
    rows.push(top, bottom);
  }
  // jsQR's locator misses an occasional perfect image at one size; try a few sizes.
  for (const scale of [6, 5, 8, 4, 10]) {
    const decoded = decodeAt(rows, scale);
    if (decoded !== null) return decoded;
  }
  return null;
}

function decodeAt(rows: boolean[][], scale: number): string | null {
  const quiet = 4;
  const width = ((rows[0]?.length ?? 0) + quiet * 2) * scale;
  const height = (rows.length + quiet * 2) * scale;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const [y, row] of rows.entries()) {
    for (const [x, dark] of row.entries()) {
      if (!dark) continue;
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const i = (((y + quiet) * scale + dy) * width + (x + quiet) * scale + dx) * 4;
          data[i] = 0;
          data[i + 1] = 0;
          data[i + 2] = 0;
        }
      }
    }
  }
  return jsQR(data, width, height)?.data ?? null;
}

/**
 * A QR code drawn in block characters alone, as for a light-on-dark terminal: a block is a
 * light pair of modules, a space a dark pair, and the half blocks a light top (▀) or bottom (▄).
 */
export function decodePlainQr(text: string): string | null {
  const rows: boolean[][] = [];
  for (const line of text.split('\n')) {
    if (!/[█▀▄]/.test(line)) continue;
    const top: boolean[] = [];
    const bottom: boolean[] = [];
    for (const ch of line.replace(/\r/g, '')) {
      top.push(ch !== '█' && ch !== '▀');
      bottom.push(ch !== '█' && ch !== '▄');
    }
    rows.push(top, bottom);
  }
  for (const scale of [6, 5, 8, 4, 10]) {
    const decoded = decodeAt(rows, scale);
    if (decoded !== null) return decoded;
  }
  return null;
}
