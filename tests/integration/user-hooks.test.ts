/**
 * `pocketmux hooks install | status | uninstall` against a real agent and a temp HOME, and the
 * hook script's `--global` mode stepping aside in a claude a Claude tab started.
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { runHookScript } from '../support/hook-script.js';
import { claim, createTab, type Session } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { capturedHook, paneEnv, StatusClient } from '../support/status.js';

let agent: AgentHandle;
let session: Session;
let claudeDir: string;
let settingsPath: string;

const ORIGINAL = `${JSON.stringify(
  {
    model: 'opus',
    hooks: { Stop: [{ matcher: '', hooks: [{ type: 'command', command: 'say done' }] }] },
    statusLine: { type: 'command', command: 'echo mine' },
    somethingNew: { keep: [1, 2] },
  },
  null,
  2,
)}\n`;

beforeAll(async () => {
  agent = await startAgent();
  session = await claim(agent);
  claudeDir = join(agent.home, '.claude');
  settingsPath = join(claudeDir, 'settings.json');
});
afterAll(cleanupAgents);

const cli = (...args: string[]) => runCli(['hooks', ...args, '--data-dir', agent.dataDir], agentEnv(agent));

const runHook = (args: string, payload: unknown, env: Record<string, string>) => runHookScript(agent.dataDir, args, payload, env);

describe('pocketmux hooks (Claude user settings)', () => {
  it('refuses to install before the agent wrote its script, and a settings file it cannot read', async () => {
    const env = newTestEnvironment();
    const r = await runCli(['hooks', 'install', '--data-dir', env.dataDir], agentEnv(env));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('start the agent first');

    mkdirSync(claudeDir, { recursive: true });
    writeFileSync(settingsPath, '{"hooks": [}');
    const bad = await cli('install');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not valid JSON');
    expect(readFileSync(settingsPath, 'utf8')).toBe('{"hooks": [}');
    expect(readdirSync(claudeDir)).toEqual(['settings.json']);
  });

  it('installs beside the person own settings, with a private backup, once; uninstall gives the file back', async () => {
    writeFileSync(settingsPath, ORIGINAL);
    chmodSync(settingsPath, 0o644);
    expect(JSON.parse((await cli('status', '--json')).stdout)).toMatchObject({ installed: 'none', settings: settingsPath, statusLine: 'theirs' });

    const installed = await cli('install');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('Your own statusLine is left as it is');
    const after = readFileSync(settingsPath, 'utf8');
    const settings = JSON.parse(after) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]>; statusLine: unknown; model: string };
    expect(settings.model).toBe('opus');
    expect(settings.statusLine).toEqual({ type: 'command', command: 'echo mine' });
    expect(settings.hooks.Stop?.map((e) => e.hooks[0]?.command)).toEqual(['say done', `'${agent.dataDir}/hooks/hook.sh' --global Stop`]);
    expect(settings.hooks.PermissionRequest?.[0]?.hooks[0]).toMatchObject({ command: `'${agent.dataDir}/hooks/hook.sh' --global PermissionRequest`, timeout: 1800 });
    expect(statSync(settingsPath).mode & 0o777).toBe(0o644);
    const backups = readdirSync(claudeDir).filter((n) => n.startsWith('settings.json.pocketmux-backup-'));
    expect(backups).toHaveLength(1);
    const backup = join(claudeDir, backups[0] as string);
    expect(readFileSync(backup, 'utf8')).toBe(ORIGINAL);
    expect(statSync(backup).mode & 0o777).toBe(0o600);

    const status = await cli('status', '--json');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ installed: 'all', missing: [], statusLine: 'theirs' });
    expect((await cli('status')).stdout).toContain('installed for every event');

    const again = await cli('install');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already installed');
    expect(readFileSync(settingsPath, 'utf8')).toBe(after);
    expect(readdirSync(claudeDir).filter((n) => n.includes('pocketmux-backup'))).toHaveLength(1);

    const doctor = await runCli(['doctor', '--json', '--data-dir', agent.dataDir], agentEnv(agent));
    expect((JSON.parse(doctor.stdout) as { name: string; ok: boolean; detail: string }[]).find((c) => c.name === 'user hooks')).toMatchObject({ ok: true, detail: expect.stringContaining('installed in') });

    const removed = await cli('uninstall');
    expect(removed.code).toBe(0);
    // Bytes equal: the original was in the layout Claude writes (two spaces, final newline).
    expect(readFileSync(settingsPath, 'utf8')).toBe(ORIGINAL);
    expect(statSync(settingsPath).mode & 0o777).toBe(0o644);
    const twice = await cli('uninstall');
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain('not installed');
    expect(JSON.parse((await cli('status', '--json')).stdout)).toMatchObject({ installed: 'none' });
  });

  it('creates a missing settings file (0600) with a statusLine, and removes it all again', async () => {
    const env = { ...agentEnv(agent), CLAUDE_CONFIG_DIR: join(agent.root, 'claude-config') };
    const r = await runCli(['hooks', 'install', '--json', '--data-dir', agent.dataDir], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: true, backup: null, statusLine: 'added' });
    const file = join(agent.root, 'claude-config', 'settings.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).statusLine.command).toBe(`'${agent.dataDir}/hooks/hook.sh' --global statusline`);
    // Another data dir's status tells that statusLine from the person's own.
    const other = await runCli(['hooks', 'status', '--json', '--data-dir', join(agent.root, 'other data')], env);
    expect(JSON.parse(other.stdout)).toMatchObject({ installed: 'none', statusLine: 'other-pocketmux' });
    const otherText = await runCli(['hooks', 'status', '--data-dir', join(agent.root, 'other data')], env);
    expect(otherText.stdout).toContain("statusLine: another pocketmux data dir's (left alone)");
    expect(otherText.stdout).not.toContain('your own');

    // Install made the file and nothing else was added: uninstall removes it, with no backup.
    const removed = await runCli(['hooks', 'uninstall', '--json', '--data-dir', agent.dataDir], env);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ changed: true, backup: null, fileRemoved: true });
    expect(readdirSync(join(agent.root, 'claude-config'))).toEqual([]);

    // Made by install, then added to: the person's additions stay, backed up as any change is.
    expect((await runCli(['hooks', 'install', '--data-dir', agent.dataDir], env)).code).toBe(0);
    const withMine = { ...JSON.parse(readFileSync(file, 'utf8')), model: 'opus' };
    writeFileSync(file, JSON.stringify(withMine));
    const kept = await runCli(['hooks', 'uninstall', '--json', '--data-dir', agent.dataDir], env);
    expect(JSON.parse(kept.stdout)).toMatchObject({ changed: true, fileRemoved: false });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'opus' });
    expect(readdirSync(join(agent.root, 'claude-config')).filter((n) => n.includes('pocketmux-backup'))).toHaveLength(1);
  });

  it('steps aside in a claude a Claude tab started, and reports from any other', async () => {
    const tab = await createTab(session);
    const env = await paneEnv(agent, tab);
    const client = new StatusClient(session);
    await client.opened;
    const heard = () => client.messages.filter((m) => m.type === 'status:hook-event' && m.hook.tabId === tab.id);
    const payload = capturedHook('UserPromptSubmit');

    const aside = await runHook('--global UserPromptSubmit', payload, { ...env, POCKETMUX_TAB_HOOKS: '1' });
    expect(aside).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // A later report, from another tab, on the same channel: once it is here, one the aside
    // hook had sent would have come before it.
    const later = await createTab(session);
    await runHook('UserPromptSubmit', { ...payload, session_id: `${String(payload.session_id)}-later` }, await paneEnv(agent, later));
    await eventually(() => client.messages.some((m) => m.type === 'status:hook-event' && m.hook.tabId === later.id), 5000, 'the later tab hook event');
    expect(heard()).toEqual([]);

    const global = await runHook('--global UserPromptSubmit', payload, env);
    expect(global).toMatchObject({ code: 0, stdout: '' });
    await eventually(() => (heard().length === 1 ? true : null), 5000, 'the global hook event');

    // Without --global the script is what the tabs' own settings run: the variable changes nothing.
    await runHook('UserPromptSubmit', payload, { ...env, POCKETMUX_TAB_HOOKS: '1' });
    await eventually(() => (heard().length === 2 ? true : null), 5000, 'the tab hook event');
    client.ws.close();
  });
});
