import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ClaudeVersions,
} from '../../agent/claude/claude-version.js';
import { createLogger } from '../../agent/util/log.js';

describe('ClaudeVersions', () => {
  let dir: string;
  const log = createLogger({ stderr: false });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-claude-version-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in claude that counts how often it is asked. */
  function standIn(name: string, output: string): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\necho x >> '${path}.calls'\nprintf '%s\\n' '${output}'\n`, { mode: 0o755 });
    return path;
  }
  const calls = (path: string) => readFileSync(`${path}.calls`, 'utf8').split('\n').filter(Boolean).length;

  it('asks each binary once, by name on the PATH or by path, and again once it changed', async () => {
    const bin = standIn('claude', '2.1.332 (Claude Code)');
    const versions = new ClaudeVersions({ PATH: dir }, log);
    expect(await versions.versionOf('claude')).toEqual([2, 1, 332]);
    expect(await Promise.all([versions.versionOf(bin), versions.versionOf('claude')])).toEqual([[2, 1, 332], [2, 1, 332]]);
    expect(calls(bin)).toBe(1);
    // An update replaces the file: a new modification time means a new question.
    writeFileSync(bin, `#!/bin/sh\necho x >> '${bin}.calls'\necho '1.0.0 (Claude Code)'\n`);
    utimesSync(bin, new Date(), new Date(Date.now() + 60_000));
    expect(await versions.versionOf('claude')).toEqual([1, 0, 0]);
    expect(calls(bin)).toBe(2);
  });

  it('knows no version of a missing, failing, hanging or unexpected claude', async () => {
    const versions = new ClaudeVersions({ PATH: dir }, log, 300);
    expect(await versions.versionOf('no-such-claude')).toBeNull();
    writeFileSync(join(dir, 'failing'), '#!/bin/sh\necho "2.1.332 (Claude Code)"\nexit 3\n', { mode: 0o755 });
    expect(await versions.versionOf('failing')).toBeNull();
    writeFileSync(join(dir, 'hanging'), '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    expect(await versions.versionOf('hanging')).toBeNull();
    expect(await versions.versionOf(standIn('other', 'usage: other [options]'))).toBeNull();
  });
});
