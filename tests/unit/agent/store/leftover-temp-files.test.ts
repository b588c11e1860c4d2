import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeLeftoverTempFiles, writeJsonAtomic } from '../../../../agent/store/atomic-file.js';

describe('removeLeftoverTempFiles', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("deletes the temp files a killed agent left, and keeps this process's, its files and anything else", () => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-leftovers-'));
    writeJsonAtomic(join(dir, 'status.json'), { tabs: {} });
    const leftover = 'status.json.4242.9e8079c1.tmp';
    const own = `devices.json.${process.pid}.0a1b2c3d.tmp`;
    for (const name of [leftover, own, 'notes.tmp', 'status.json.corrupt-1']) writeFileSync(join(dir, name), 'x');
    expect(removeLeftoverTempFiles(dir)).toEqual([leftover]);
    for (const name of ['status.json', own, 'notes.tmp', 'status.json.corrupt-1']) expect(existsSync(join(dir, name)), name).toBe(true);
    expect(removeLeftoverTempFiles(join(dir, 'missing'))).toEqual([]);
  });
});
