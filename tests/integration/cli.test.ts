import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { paneEnv } from '../support/status.js';
import { AGENT_BIN, type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, tmux } from '../support/agent.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');
const fixture = readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8').split('\n');
const stop = fixture.find((l) => l.includes('"hook_event_name":"Stop"')) as string;
const prompt = fixture.find((l) => l.includes('"hook_event_name":"UserPromptSubmit"')) as string;

let agent: AgentHandle;
beforeAll(async () => {
  // At debug, the agent logs each read of the tab states: a waiting CLI's polls show in its log.
  agent = await startAgent({ env: { POCKETMUX_LOG_LEVEL: 'debug' } });
});
afterAll(cleanupAgents);

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent));
}

/** A Claude hook event as the hook script sends it, from the given pane of one of the tabs. */
async function hook(pane: { TMUX_PANE: string; TMUX: string }, event: string, body: string): Promise<number> {
  const res = await fetch(new URL(`/hooks/${event}`, agent.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-pocketmux-token': readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim(),
      'x-pocketmux-pane': pane.TMUX_PANE,
      'x-pocketmux-tmux': pane.TMUX,
    },
    body,
  });
  return res.status;
}

describe('pocketmux CLI for scripts', () => {
  it('creates a tab in a directory, types into it, lists it, and closes it', async () => {
    const dir = join(agent.home, 'scripted');
    mkdirSync(dir);
    const created = await cli('tab', 'new', '--name', 'worker', dir, '--json');
    expect(created.code).toBe(0);
    const tab = JSON.parse(created.stdout) as { id: string; workspaceId: string; cwd: string; name: string };
    expect(tab).toMatchObject({ cwd: dir, name: 'worker' });

    // A second tab in the same directory reuses its workspace.
    const again = await cli('tab', 'new', dir);
    expect(again.stdout.trim()).toMatch(/^tb-/);

    expect((await cli('tab', 'send', tab.id, 'echo sent-$((20+1)) > out.txt')).code).toBe(0);
    await expect.poll(() => readFileSync(join(dir, 'out.txt'), 'utf8').trim(), { timeout: 10_000 }).toBe('sent-21');

    const list = await cli('tabs', '--json');
    const rows = JSON.parse(list.stdout) as { id: string; kind: string; workspace: string; name: string | null }[];
    expect(rows.find((r) => r.id === tab.id)).toMatchObject({ kind: 'shell', workspace: 'scripted', name: 'worker' });
    const plain = await cli('tabs');
    expect(plain.stdout).toMatch(/^ID\s+KIND\s+STATE\s+WORKSPACE\s+NAME\s+DIRECTORY$/m);
    expect(plain.stdout).toContain(tab.id);

    expect((await cli('tab', 'close', tab.id)).code).toBe(0);
    expect(await tmux(agent.tmuxSocket, 'list-sessions', '-F', '#{session_name}')).not.toContain(tab.id);
  });

  it('waits for a state, and times out with its own exit code', async () => {
    const created = await cli('tab', 'new', agent.home, '--json');
    const tab = JSON.parse(created.stdout) as { id: string; workspaceId: string };
    // A claude typed in a shell tab reports through the user hooks: the tab then has its state.
    const pane = await paneEnv(agent, tab);
    expect(await hook(pane, 'UserPromptSubmit', prompt)).toBe(204);
    const timedOut = await cli('tab', 'status', tab.id, '--wait-for', 'ready-for-review', '--timeout', '1');
    expect(timedOut.code).toBe(4);
    expect(timedOut.stderr).toMatch(/is busy, not ready-for-review, after 1 s/);

    const reads = () => agent.stderr().match(/ debug tab states read \{/g)?.length ?? 0;
    const readsBefore = reads();
    const waiting = cli('tab', 'status', tab.id, '--wait-for', 'ready-for-review', '--json');
    // The waiting CLI has read the tab as busy: from here it waits for the state.
    await eventually(() => reads() > readsBefore, 20_000, 'the waiting CLI to read the tab states', () => agent.stderr().slice(-2000));
    // Claude's Stop hook arrives for the tab's pane.
    expect(await hook(pane, 'Stop', stop)).toBe(204);
    const done = await waiting;
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ id: tab.id, state: 'ready-for-review' });
  });

  it('says what runs in a shell tab, and will not wait for a Claude state no claude reports there', async () => {
    const dir = join(agent.home, 'plain');
    mkdirSync(dir);
    const tab = JSON.parse((await cli('tab', 'new', '--name', 'plain', dir, '--json')).stdout) as { id: string };
    await expect
      .poll(async () => (await cli('tab', 'status', tab.id)).stdout, { timeout: 15_000 })
      .toBe(`shell: at the prompt of bash\nname: plain\nworkspace: plain\ndirectory: ${dir}\n`);

    expect((await cli('tab', 'send', tab.id, 'sleep 300')).code).toBe(0);
    await expect.poll(async () => (await cli('tab', 'status', tab.id)).stdout, { timeout: 15_000 }).toMatch(/^shell: running sleep\n/);

    // At once, not after the 600 s default: a usage error, as for a state that does not exist.
    const refused = await cli('tab', 'status', tab.id, '--wait-for', 'idle');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is a shell tab, and no claude in it reports, so it has no Claude state to wait for/);
    expect(refused.stderr).toMatch(/tab new --claude DIR --data-dir /);
    expect((await cli('tab', 'close', tab.id)).code).toBe(0);
  });

  it('says clearly when there is nothing to talk to, or the command is wrong', async () => {
    const env = newTestEnvironment();
    const idle = spawn(process.execPath, [AGENT_BIN, 'tabs', '--data-dir', env.dataDir], { env: agentEnv(env) });
    let err = '';
    idle.stderr.on('data', (d) => {
      err += d;
    });
    const [code] = (await once(idle, 'exit')) as [number];
    expect(code).toBe(3);
    expect(err).toMatch(/no pocketmux agent is running/);

    const wrong = await cli('tab', 'frobnicate');
    expect(wrong.code).toBe(2);
    const badState = await cli('tab', 'status', 'tb-x', '--wait-for', 'sleeping');
    expect(badState.code).toBe(2);
    const missing = await cli('tab', 'close', 'tb-nothere', '--json');
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout)).toEqual({ error: 'no tab tb-nothere' });
  });

  it('the local token only works without an Origin, and a wrong one is refused', async () => {
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const ok = await fetch(new URL('/api/tabs', agent.url), { headers: { 'x-pocketmux-token': token } });
    expect(ok.status).toBe(200);
    const wrong = await fetch(new URL('/api/tabs', agent.url), { headers: { 'x-pocketmux-token': `${token}x` } });
    expect(wrong.status).toBe(401);
    const fromPage = await fetch(new URL('/api/tabs', agent.url), { headers: { 'x-pocketmux-token': token, origin: agent.url.slice(0, -1) } });
    expect(fromPage.status).toBe(401);
  });
});
