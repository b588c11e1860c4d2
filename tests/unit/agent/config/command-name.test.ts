
import { mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advisedCommand, resolveCommandName } from '../../../../agent/config/command-name.js';
import { installations } from '../../../support/installations.js';

const { root, install, global, npxCache, empty } = installations();
const other = install('other');

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
