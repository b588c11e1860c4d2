/**
 * `npm run screenshots` still works: its main function, run into a temporary directory against
 * a real agent, tmux and Chromium, writes both pictures as PNGs of the size the README shows
 * (and the phone's in WebKit where it can be driven),
 * and leaves nothing behind (its temporary HOME, the agent's data, Chromium's profile, any
 * process).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScreenshots } from '../screenshots/run.js';
import { webkitAvailable } from '../support/engine-choice.js';
import { machineTmpdir } from '../support/temp.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Unpacked once per machine into the temp dir where the packaged Chromium is the one used (tests/support/browser.ts). */
const PACKAGED_CHROMIUM = 'pocketmux-sparticuz-chromium-';

/** A PNG's size in pixels, from its header (the IHDR chunk, always first). */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${file} is a PNG`).toBe(true);
  expect(bytes.toString('latin1', 12, 16)).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The temp dir this file's run makes everything in, so that what it leaves can be seen. */
let scratch: string;
const savedTmpdir = process.env.TMPDIR;

beforeAll(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'pocketmux-screenshots-')));
  for (const name of readdirSync(machineTmpdir())) {
    if (name.startsWith(PACKAGED_CHROMIUM)) symlinkSync(join(machineTmpdir(), name), join(scratch, name));
  }
  process.env.TMPDIR = scratch;
});

afterAll(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(scratch, { recursive: true, force: true });
});

describe('npm run screenshots', () => {
  it('writes the phone and the desktop picture, and cleans up after itself', async () => {
    const out = join(scratch, 'out');
    mkdirSync(out);
    const lines: string[] = [];
    const files = await makeScreenshots(out, { log: (line) => lines.push(line) });

    // The phone once more in WebKit where it can be driven.
    const webkit = webkitAvailable() ? { webkitPhone: join(out, 'phone-inbox-webkit.png') } : {};
    expect(files).toEqual({ phone: join(out, 'phone-inbox.png'), desktop: join(out, 'desktop-split.png'), ...webkit });
    expect(readdirSync(out).sort()).toEqual(['desktop-split.png', 'phone-inbox.png', ...(webkitAvailable() ? ['phone-inbox-webkit.png'] : [])].sort());
    // A phone of 390×844 CSS pixels at twice the density (WebKitGTK's at one); a desktop of 1280×800 at one.
    expect(pngSize(files.phone)).toEqual({ width: 780, height: 1688 });
    if (files.webkitPhone) expect(pngSize(files.webkitPhone)).toEqual({ width: 390, height: 844 });
    expect(pngSize(files.desktop)).toEqual({ width: 1280, height: 800 });

    // It said what it did, naming no directory of this machine.
    expect(lines.some((l) => l.includes('taking phone-inbox.png'))).toBe(true);
    expect(lines.some((l) => l.includes('taking desktop-split.png'))).toBe(true);
    expect(lines.some((l) => l.includes('taking phone-inbox-webkit.png'))).toBe(webkitAvailable());
    expect(lines.join('\n')).not.toContain(scratch);

    // Nothing left: no directory but the pictures' (and a shared packaged Chromium), no process running from one.
    expect(readdirSync(scratch).filter((name) => name !== 'out' && !name.startsWith(PACKAGED_CHROMIUM))).toEqual([]);
    const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(processes.split('\n').filter((args) => args.includes(scratch))).toEqual([]);
  }, 180_000);
});
