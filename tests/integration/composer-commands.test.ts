import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_LIMITS, } from '../../agent/composer/command-files.js';
import { readCommandFiles, } from '../../agent/composer/command-scan.js';
import { tempFolders } from '../support/temp-folders.js';

describe('reading a commands folder', () => {
  const temp = tempFolders('pm-commands-', 'each');

  it('reads at most 8 KB of a file, stops past the entry and depth bounds, and survives a FIFO', async () => {
    const commands = join(temp(), 'commands');
    let deep = commands;
    for (let i = 1; i <= 7; i++) deep = join(deep, `d${i}`);
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(commands, 'd1', 'd2', 'd3', 'd4', 'd5', 'ok.md'), 'depth 5');
    writeFileSync(join(commands, 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'too-deep.md'), 'depth 6');
    writeFileSync(join(commands, 'big.md'), 'x'.repeat(100_000));
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(commands, 'fifo.md')]);
    const files = await readCommandFiles(commands);
    expect(files.map((f) => f.relativePath).sort()).toEqual(['big.md', 'd1/d2/d3/d4/d5/ok.md']);
    expect(files.find((f) => f.relativePath === 'big.md')?.content).toHaveLength(COMMAND_LIMITS.fileBytes);

    const many = join(temp(), 'commands');
    mkdirSync(many);
    for (let i = 0; i < 600; i++) writeFileSync(join(many, `c${String(i).padStart(3, '0')}.md`), 'x');
    expect(await readCommandFiles(many)).toHaveLength(COMMAND_LIMITS.entries);
  });

});
