import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureSpawnHelperExecutable } from '../../../../agent/terminal/spawn-helper.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A node-pty folder as its 1.1.0 tarball unpacks: the macOS helpers without their execute bit. */
function unpackedNodePty(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pmx-node-pty-'));
  dirs.push(dir);
  for (const arch of ['arm64', 'x64']) {
    mkdirSync(join(dir, 'prebuilds', `darwin-${arch}`), { recursive: true });
    writeFileSync(join(dir, 'prebuilds', `darwin-${arch}`, 'spawn-helper'), 'binary', { mode: 0o644 });
  }
  return dir;
}

describe('node-pty spawn-helper on macOS', () => {
  it('makes the helper of this architecture executable, once', () => {
    const dir = unpackedNodePty();
    const helper = join(dir, 'prebuilds', 'darwin-arm64', 'spawn-helper');
    expect(ensureSpawnHelperExecutable('darwin', 'arm64', dir)).toEqual([helper]);
    expect(statSync(helper).mode & 0o777).toBe(0o744);
    expect(statSync(join(dir, 'prebuilds', 'darwin-x64', 'spawn-helper')).mode & 0o777).toBe(0o644);
    expect(ensureSpawnHelperExecutable('darwin', 'arm64', dir)).toEqual([]);
  });

  it('leaves Linux alone, and a node-pty it cannot find', () => {
    const dir = unpackedNodePty();
    expect(ensureSpawnHelperExecutable('linux', 'x64', dir)).toEqual([]);
    expect(statSync(join(dir, 'prebuilds', 'darwin-x64', 'spawn-helper')).mode & 0o777).toBe(0o644);
    expect(ensureSpawnHelperExecutable('darwin', 'x64', null)).toEqual([]);
    expect(ensureSpawnHelperExecutable('darwin', 'x64', join(dir, 'missing'))).toEqual([]);
  });
});
