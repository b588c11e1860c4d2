/**
 * Codex started outside pocketmux, in the person's own tmux, reporting through the hooks
 * `pocketmux hooks install --codex` put in Codex's hooks.json and had Codex trust: the real
 * Codex CLI (0.169.0) against the stand-in Responses API, a real agent, the person's own tmux
 * server, every state seen by a real `/api/status` client and every answer given over REST.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutsideSessionsResponse } from '../../protocol/outside.js';
import { codexHookHash } from '../../agent/codex/hook-trust.js';
import { shellQuote } from '../../agent/util/shell.js';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, REPO_ROOT, runCli, startAgent } from '../support/agent.js';
import { api, claim, type Session, TerminalClient } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { codexConfigToml, command, FakeOpenAI, message } from '../support/fake-openai.js';
import { StatusClient } from '../support/status.js';
import { bareTmuxEnv, TmuxServer } from '../support/tmux-server.js';

const CODEX_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'codex');
const READY = 'Ask Codex to do anything';

describe('Codex outside pocketmux, through hooks install --codex', () => {
  let fake: FakeOpenAI;
  let agent: AgentHandle;
  let session: Session;
  let client: StatusClient;
  let project: string;
  let key: string;
  const env = newTestEnvironment();
  /** The person's own tmux server, where they start codex themselves. */
  const person = newTestEnvironment();
  const codexHome = join(env.home, '.codex');
  const hooksFile = join(codexHome, 'hooks.json');
  /** A hook of the person's own, there before pocketmux's. */
  const theirs = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 5 }] }] } };

  const personServer = new TmuxServer({ name: person.tmuxSocket }, bareTmuxEnv(person.home));
  const personTmux = (...args: string[]) => personServer.run(...args);
  const screen = async () => (await personTmux('capture-pane', '-p', '-t', '=mine:')).replaceAll('\u00a0', ' ');
  const waitScreen = (what: string, test: (s: string) => boolean, timeoutMs = 30_000) =>
    eventually(async () => ((s) => (test(s) ? s : null))(await screen()), timeoutMs, what, screen);
  const cli = (...args: string[]) => runCli([...args, '--data-dir', agent.dataDir, '--codex-bin', CODEX_BIN], agentEnv(agent, { CODEX_HOME: codexHome }), 60_000);

  async function submit(prompt: string): Promise<void> {
    await personTmux('send-keys', '-t', '=mine:', '-l', prompt);
    await waitScreen(`"${prompt}" typed`, (s) => s.includes(prompt));
    await personTmux('send-keys', '-t', '=mine:', 'Enter');
  }

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    mkdirSync(join(env.home, 'project'), { recursive: true });
    project = realpathSync(join(env.home, 'project'));
    mkdirSync(codexHome, { recursive: true });
    // The person reviewed and trusted their own hook (else Codex asks about it at every start).
    const theirTrust = `\n[hooks.state.${JSON.stringify(`${hooksFile}:stop:0:0`)}]\ntrusted_hash = ${JSON.stringify(codexHookHash('Stop', { command: 'true', timeoutSec: 5 }))}\n`;
    writeFileSync(join(codexHome, 'config.toml'), codexConfigToml(fake.url, [project]) + theirTrust);
    writeFileSync(hooksFile, `${JSON.stringify(theirs, null, 2)}\n`);
    agent = await startAgent({ reuse: env, args: ['--codex-bin', CODEX_BIN], env: { CODEX_HOME: codexHome, POCKETMUX_LOG_LEVEL: 'debug' } });
    session = await claim(agent);
    client = new StatusClient(session);
    await client.opened;
  }, 60_000);

  afterAll(async () => {
    client?.ws.close();
    // Codex first, waited for: as it ends it writes under CODEX_HOME, in the test's dir, which
    // must not come back after cleanupAgents removed it.
    await personServer.killPaneProcesses().catch(() => undefined);
    // The agent before the server: its sweep looks at the person's server, and must not find it half gone.
    await cleanupAgents();
    await personServer.stop();
    await fake?.close();
  });

  it('installs its hooks beside the person’s own, and has Codex trust exactly those, keeping the trust the person gave theirs', async () => {
    const installed = await cli('hooks', 'install', '--codex', '--json');
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    const result = JSON.parse(installed.stdout) as { changed: boolean; added: string[]; trusted: string[]; backup: string | null };
    expect(result.changed).toBe(true);
    expect(result.added).toHaveLength(12);
    expect(result.trusted).toHaveLength(12);
    expect(result.backup).toMatch(/hooks\.json\.pocketmux-backup-/);
    // The person's hook comes first and stays as it was; ours follow it.
    const file = JSON.parse(readFileSync(hooksFile, 'utf8')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> };
    expect(file.hooks.Stop?.[0]).toEqual(theirs.hooks.Stop[0]);
    expect(file.hooks.Stop?.[1]?.hooks[0]?.command).toBe(`${shellQuote(join(agent.dataDir, 'hooks', 'hook.sh'))} --global codex/Stop`);
    expect(file.hooks.SessionEnd?.[0]?.hooks[0]?.timeout).toBe(3);
    // Codex wrote the trust, for our hooks only: the person's own is still theirs to review.
    const config = readFileSync(join(codexHome, 'config.toml'), 'utf8');
    expect(config).toContain(`[hooks.state."${hooksFile}:stop:1:0"]`);
    expect(config).toContain(`[hooks.state."${hooksFile}:permission_request:0:0"]`);
    expect(config).toContain(`[hooks.state."${hooksFile}:stop:0:0"]`);
    const status = JSON.parse((await cli('hooks', 'status', '--codex', '--json')).stdout) as { installed: string; untrusted: string[] };
    expect(status).toMatchObject({ installed: 'all', untrusted: [] });
    // Again: nothing to add, nothing to trust.
    const again = JSON.parse((await cli('hooks', 'install', '--codex', '--json')).stdout) as { changed: boolean };
    expect(again.changed).toBe(false);
  }, 120_000);

  it('follows a codex the person started in their own tmux: busy, needs input, approved from the phone, ready for review', async () => {
    const start = `env CODEX_HOME=${shellQuote(codexHome)} PM_STAND_IN_KEY=sk-stand-in ${shellQuote(CODEX_BIN)}`;
    await personTmux('new-session', '-d', '-s', 'mine', '-x', '120', '-y', '40', '-c', project, start);
    await waitScreen('the Codex prompt', (s) => s.includes(READY), 60_000);
    const marker = join(project, 'outside.txt');
    fake.onPrompt('please write from outside', command(`echo outside > ${marker}`, 'Write from outside'));
    fake.afterToolOutput(message('Written from outside.'));
    await submit('please write from outside');
    // No one has the person's tmux session on screen: the request is held for the card.
    const approval = await eventually(() => client.openApprovals().find((a) => a.tabId.startsWith('outside-') && JSON.stringify(a).includes('outside.txt')), 60_000, 'the approval', async () => `${await screen()}\n--- agent ---\n${agent.stderr().slice(-3000)}`);
    key = approval.tabId;
    expect(approval.kind).toBe('permission');
    expect(client.latest(key)?.state).toBe('needs-input');
    const listed = (await api<OutsideSessionsResponse>(session, 'GET', '/api/outside')).body.sessions.find((s) => s.key === key);
    expect(listed).toMatchObject({ agent: 'codex', terminal: 'tmux', cwd: project });
    await waitScreen('Codex running the hook', (s) => s.includes('Running hook'));
    expect((await api(session, 'POST', `/api/approvals/${approval.id}`, { decision: 'allow' })).status).toBe(200);
    await client.waitState(key, 'ready-for-review', (s) => s.lastMessage === 'Written from outside.', 60_000);
    expect(readFileSync(marker, 'utf8')).toBe('outside\n');
    expect(client.states(key)).toEqual(['idle', 'busy', 'needs-input', 'busy', 'ready-for-review']);
    // Adopt moves Claude sessions only: this one stays where it runs, and the agent says so.
    const adopt = await api<{ error: string }>(session, 'POST', `/api/outside/${encodeURIComponent(key)}/adopt`, {});
    expect(adopt.status).toBe(409);
    expect(adopt.body.error).toMatch(/only a Claude session can be adopted; this Codex session stays where it runs/);
  }, 180_000);

  it('with the session on screen (a terminal opened from the phone), Codex shows its own dialog, and the card answers it by keys', async () => {
    const terminal = new TerminalClient(session, key, { cols: 120, rows: 40 });
    try {
      await terminal.opened;
      await eventually(async () => (await personTmux('display-message', '-p', '-t', '=mine:', '#{session_attached}')).trim() !== '0', 15_000, 'a client on the person’s session');
      const marker = join(project, 'seen.txt');
      fake.onPrompt('please write while seen', command(`echo seen > ${marker}`, 'Write while seen'));
      fake.afterToolOutput(message('Written while seen.'));
      await submit('please write while seen');
      await waitScreen("Codex's own dialog", (s) => s.includes('Would you like to run the following command?'), 60_000);
      const card = await eventually(() => client.openApprovals().find((a) => a.tabId === key && a.kind === 'dialog'), 30_000, 'the card of the dialog');
      expect(card.options[0]).toEqual({ key: '1', label: 'Yes, proceed (y)' });
      expect((await api(session, 'POST', `/api/approvals/${card.id}`, { decision: 'answer', option: '1' })).status).toBe(200);
      await client.waitState(key, 'ready-for-review', (s) => s.lastMessage === 'Written while seen.', 60_000);
      expect(readFileSync(marker, 'utf8')).toBe('seen\n');
    } finally {
      terminal.close();
    }
  }, 180_000);

  it('uninstalls exactly what it installed: the person’s hook and its trust stay, and Codex forgets the trust it gave ours', async () => {
    const removed = await cli('hooks', 'uninstall', '--codex', '--json');
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ changed: true, fileRemoved: false, trustLeft: [] });
    expect(JSON.parse(readFileSync(hooksFile, 'utf8'))).toEqual(theirs);
    const config = readFileSync(join(codexHome, 'config.toml'), 'utf8');
    expect(config).not.toContain(`${hooksFile}:stop:1:0`);
    expect(config).not.toContain(`${hooksFile}:permission_request:0:0`);
    expect(config).toContain(`[hooks.state."${hooksFile}:stop:0:0"]`);
    expect(existsSync(hooksFile)).toBe(true);
  }, 120_000);
});
