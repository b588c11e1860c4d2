import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paneEnv } from '../support/status.js';
import { AGENT_BIN, type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent, tmux } from '../support/agent.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'claude-code-2.1.332');
const stop = readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.includes('"Stop"'))[0] as string;

let agent: AgentHandle;
beforeAll(async () => {
  agent = await startAgent();
});
afterAll(cleanupAgents);

function cli(...args: string[]) {
  return runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent));
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
    const timedOut = await cli('tab', 'status', tab.id, '--wait-for', 'ready-for-review', '--timeout', '1');
    expect(timedOut.code).toBe(4);
    expect(timedOut.stderr).toMatch(/is without status, not ready-for-review, after 1 s/);

    const waiting = cli('tab', 'status', tab.id, '--wait-for', 'ready-for-review', '--json');
    // Claude's Stop hook arrives for the tab's pane.
    const pane = await paneEnv(agent, tab);
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(new URL('/hooks/Stop', agent.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-pocketmux-token': readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim(),
        'x-pocketmux-pane': pane.TMUX_PANE,
        'x-pocketmux-tmux': pane.TMUX,
      },
      body: stop,
    });
    expect(res.status).toBe(204);
    const done = await waiting;
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ id: tab.id, state: 'ready-for-review' });
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
