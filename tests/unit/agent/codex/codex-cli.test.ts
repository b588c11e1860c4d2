import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CodexCli, codexShellCommand, codexTabHooks } from '../../../../agent/codex/codex-cli.js';
import { CODEX_HOOK_EVENT_NAMES } from '../../../../protocol/codex-hooks.js';

const config = { bin: 'codex', scriptPath: "/home/user/it's data/hooks/hook.sh", shell: '/bin/bash', tabHooksEnv: 'POCKETMUX_TAB_HOOKS' };

/** The words a POSIX shell makes of a command line, printed one a line by the shell itself. */
function words(line: string): string[] {
  return execFileSync('/bin/sh', ['-c', `set -- ${line}; for w do printf '%s\\0' "$w"; done`], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describe('a Codex tab', () => {
  it('runs the hook script for every event Codex has, at its own intake path, holding a permission request as long as Claude may', () => {
    const hooks = codexTabHooks(config.scriptPath);
    expect(Object.keys(hooks)).toEqual(CODEX_HOOK_EVENT_NAMES);
    expect(words(hooks.Stop.command)).toEqual([config.scriptPath, 'codex/Stop']);
    expect(hooks.PermissionRequest.timeoutSec).toBe(1800);
    expect(hooks.Stop.timeoutSec).toBe(10);
  });

  it('starts codex with the hooks and their trust as session flags, then the login shell; resumes by id', () => {
    const line = codexShellCommand(config, {});
    const [codexPart, shellPart] = line.split('; exec ');
    const argv = words((codexPart as string).replace(/^env POCKETMUX_TAB_HOOKS=1 /, ''));
    expect(line.startsWith('env POCKETMUX_TAB_HOOKS=1 ')).toBe(true);
    expect(argv[0]).toBe('codex');
    expect(argv[1]).toBe('-c');
    expect(argv[2]).toMatch(/^hooks=\{SessionStart=\[/);
    expect(argv[2]).toContain('trusted_hash="sha256:');
    expect(argv).toHaveLength(3);
    expect(shellPart).toBe("'/bin/bash' -l");
    const resumed = words((codexShellCommand(config, { resume: '01a240a7-f926-7fa3-91c4-511d9e3bf57a' }).split('; exec ')[0] as string).replace(/^env \S+ /, ''));
    expect(resumed.slice(3)).toEqual(['resume', '01a240a7-f926-7fa3-91c4-511d9e3bf57a']);
    expect(() => codexShellCommand(config, { resume: '--dangerously-bypass-approvals-and-sandbox' })).toThrow(RangeError);
  });

  it('is found running by its native binary among the pane\'s processes, not by npm\'s node launcher', () => {
    const cli = new CodexCli(config);
    const table = new Map([
      [100, { ppid: 1, comm: 'bash' }],
      [101, { ppid: 100, comm: 'node' }],
      [102, { ppid: 101, comm: 'codex' }],
      [200, { ppid: 1, comm: 'bash' }],
      [201, { ppid: 200, comm: 'node' }],
    ]);
    expect(cli.runsIn(100, table)).toBe(true);
    expect(cli.runsIn(200, table)).toBe(false);
    expect(cli.missing('/nonexistent')).toMatch(/codex \("codex"\) was not found on the login PATH/);
    expect(cli.resumable('01a240a7-f926-7fa3-91c4-511d9e3bf57a')).toBe(true);
    expect(cli.resumable('$(reboot)')).toBe(false);
  });
});
