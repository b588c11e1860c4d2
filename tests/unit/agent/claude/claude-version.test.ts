import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  FIRST_HTTP_HOOKS_VERSION,
  parseClaudeVersion,
  settingsFileFor,
  supportsHttpHooks,
} from '../../../../agent/claude/claude-version.js';

describe('claude version', () => {
  it('reads what `claude --version` prints', () => {
    expect(parseClaudeVersion('2.1.332 (Claude Code)\n')).toEqual([2, 1, 332]);
    expect(parseClaudeVersion('1.0.0 (Claude Code)')).toEqual([1, 0, 0]);
    expect(parseClaudeVersion('  10.20.30')).toEqual([10, 20, 30]);
  });

  it('gives no version for anything else', () => {
    for (const output of ['', 'claude: command not found', 'Claude Code 2.1.332', '2.1', '2.1.x', 'v', '2.1.332.4 (Claude Code)', '\u0000\u0001']) {
      expect(parseClaudeVersion(output), JSON.stringify(output)).toBeNull();
    }
  });

  it('compares part by part, numerically', () => {
    expect(compareVersions([2, 1, 332], [2, 1, 332])).toBe(0);
    expect(compareVersions([2, 1, 331], [2, 1, 332])).toBeLessThan(0);
    expect(compareVersions([2, 1, 1000], [2, 1, 332])).toBeGreaterThan(0);
    expect(compareVersions([2, 2, 0], [2, 1, 332])).toBeGreaterThan(0);
    expect(compareVersions([10, 0, 0], [2, 1, 332])).toBeGreaterThan(0);
    expect(compareVersions([1, 9, 999], [2, 0, 0])).toBeLessThan(0);
  });

  it('uses HTTP hooks from the first verified version on, the script for older or unknown ones', () => {
    expect(FIRST_HTTP_HOOKS_VERSION).toEqual([2, 1, 332]);
    const files = { http: '/d/hooks/settings.json', command: '/d/hooks/settings-command.json' };
    expect(settingsFileFor([2, 1, 332], files)).toBe(files.http);
    expect(settingsFileFor([3, 0, 0], files)).toBe(files.http);
    expect(settingsFileFor([2, 1, 331], files)).toBe(files.command);
    expect(settingsFileFor([1, 0, 0], files)).toBe(files.command);
    expect(settingsFileFor(null, files)).toBe(files.command);
    expect(supportsHttpHooks(null)).toBe(false);
  });
});
