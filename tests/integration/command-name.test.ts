import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { advisedCommand, resolveCommandName } from '../../agent/config/command-name.js';
import { installations } from '../support/installations.js';

const { root, empty } = installations();

/** What /bin/sh runs when the line is pasted: the program and its words, one per line. */
function pasted(line: string): string[] {
  return execFileSync('/bin/sh', ['-c', line], { encoding: 'utf8', env: { PATH: process.env.PATH } }).split('\n').slice(0, -1);
}

describe('advisedCommand', () => {
  const home = join(root, 'home');
  // An installation and a data dir in folders whose names a shell would split or unquote.
  const odd = join(root, "with space and 'quote'");
  const bin = join(odd, 'lib', 'pocketmux', 'bin', 'pocketmux.js');
  mkdirSync(join(bin, '..'), { recursive: true });
  const dataDir = join(odd, 'data $HOME');

  it('pastes into a shell as this bin, the subcommand, and the data dir', () => {
    writeFileSync(bin, '#!/bin/sh\nprintf \'%s\\n\' "$0" "$@"\n');
    chmodSync(bin, 0o755);
    const line = advisedCommand('pair', dataDir, { command: resolveCommandName(empty, bin), home });
    expect(pasted(line)).toEqual([bin, 'pair', '--data-dir', dataDir]);
  });

  it('runs a bin that lost its executable bit through node', () => {
    writeFileSync(bin, 'console.log([process.argv[1], ...process.argv.slice(2)].join("\\n"));\n');
    chmodSync(bin, 0o644);
    const command = resolveCommandName(empty, bin);
    expect(command).toMatch(/^node /);
    expect(pasted(advisedCommand('tab status tb-1', dataDir, { command, home }))).toEqual([bin, 'tab', 'status', 'tb-1', '--data-dir', dataDir]);
  });

});
