
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { advisedCommand, resolveCommandName } from '../../../../agent/config/command-name.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'pocketmux-command-name-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An installation's `bin/pocketmux.js`, and a PATH directory linking `pocketmux` to it. */
function install(name: string): { bin: string; pathDir: string } {
  const bin = join(root, name, 'lib', 'pocketmux', 'bin', 'pocketmux.js');
  mkdirSync(join(bin, '..'), { recursive: true });
  writeFileSync(bin, '#!/usr/bin/env node\n');
  chmodSync(bin, 0o755);
  const pathDir = join(root, name, 'bin');
  mkdirSync(pathDir, { recursive: true });
  symlinkSync(bin, join(pathDir, 'pocketmux'));
  return { bin, pathDir };
}

const global = install('global');
const other = install('other');
const npxCache = join(root, 'npx', 'node_modules', '.bin');
mkdirSync(npxCache, { recursive: true });
symlinkSync(global.bin, join(npxCache, 'pocketmux'));
const empty = join(root, 'empty');
mkdirSync(empty);

describe('resolveCommandName', () => {
  it('is `pocketmux` when the first pocketmux on PATH is this installation', () => {
    expect(resolveCommandName([empty, global.pathDir, other.pathDir].join(delimiter), global.bin)).toBe('pocketmux');
  });

  it('is this installation\'s bin by its path when another installation comes first, or none is on PATH', () => {
    expect(resolveCommandName([other.pathDir, global.pathDir].join(delimiter), global.bin)).toBe(global.bin);
    expect(resolveCommandName(empty, global.bin)).toBe(global.bin);
    expect(resolveCommandName(undefined, global.bin)).toBe(global.bin);
  });

  it('ignores the node_modules/.bin that npm start and npx put on PATH', () => {
    expect(resolveCommandName([npxCache, empty].join(delimiter), global.bin)).toBe(global.bin);
    expect(resolveCommandName([npxCache, global.pathDir].join(delimiter), global.bin)).toBe('pocketmux');
  });

  it('ignores a pocketmux that is not an executable file', () => {
    const notExecutable = join(root, 'plain');
    mkdirSync(join(notExecutable, 'pocketmux'), { recursive: true });
    expect(resolveCommandName([notExecutable, global.pathDir].join(delimiter), global.bin)).toBe('pocketmux');
  });
});

describe('advisedCommand', () => {
  const home = join(root, 'home');

  it('names no data dir for the default one, however it is spelled', () => {
    expect(advisedCommand('pair', join(home, '.pocketmux'), { command: 'pocketmux', home })).toBe('pocketmux pair');
    expect(advisedCommand('pair', `${home}/x/../.pocketmux/`, { command: 'pocketmux', home })).toBe('pocketmux pair');
    expect(advisedCommand('hooks install', join(home, 'other'), { command: 'pocketmux', home })).toBe(`pocketmux hooks install --data-dir ${join(home, 'other')}`);
  });
});
