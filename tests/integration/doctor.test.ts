/**
 * `pocketmux doctor` judges what the chosen setup needs: an agent for this machine alone needs
 * no HTTPS and no push to a phone, so those are optional there and doctor exits 0; bound
 * beyond loopback over plain HTTP, they are to fix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, agentEnv, cleanupAgents, runCli, startAgent } from '../support/agent.js';

let agent: AgentHandle;
beforeAll(async () => {
  agent = await startAgent();
});
afterAll(cleanupAgents);

type Check = { name: string; status: string; ok: boolean; detail: string };

async function doctor(...args: string[]): Promise<{ code: number | null; stdout: string; checks: Record<string, Check> }> {
  const base = ['doctor', '--data-dir', agent.dataDir, '--claude-bin', '/bin/true', ...args];
  const json = await runCli([...base, '--json'], agentEnv(agent));
  const text = await runCli(base, agentEnv(agent));
  expect(text.code).toBe(json.code);
  const checks = Object.fromEntries((JSON.parse(json.stdout) as Check[]).map((c) => [c.name, c]));
  return { code: json.code, stdout: text.stdout, checks };
}

describe('pocketmux doctor', () => {
  it('is green for an agent on this machine alone: HTTPS, push and the user hooks are optional', async () => {
    const { code, stdout, checks } = await doctor();
    for (const name of ['tmux', 'claude', 'agent', 'hooks', 'curl']) expect(checks[name]?.status, name).toBe('ok');
    expect(checks.tls).toMatchObject({ status: 'optional', ok: true, detail: expect.stringMatching(/this machine needs none.+a phone needs it: --tailscale, --public-url or --tls-cert\/--tls-key/) });
    expect(checks.push).toMatchObject({ status: 'optional', ok: true, detail: expect.stringMatching(/VAPID keys ready; 0 of \d+ paired devices subscribed/) });
    expect(checks['user hooks']).toMatchObject({ status: 'optional', detail: expect.stringMatching(/hooks install --data-dir /) });
    expect(stdout).toMatch(/^optional +tls +no HTTPS/m);
    expect(stdout).not.toMatch(/^FIX/m);
    expect(stdout).toMatch(/\nNothing to fix: what this setup needs works\.\n$/);
    expect(code).toBe(0);
  });

  it('reports Codex as optional when it is not there, and ok when it is', async () => {
    const without = await doctor('--codex-bin', 'pmx-no-such-codex');
    expect(without.checks.codex).toMatchObject({ status: 'optional', ok: true, detail: expect.stringMatching(/only for Codex tabs \(npm install -g @openai\/codex, or pass --codex-bin\)/) });
    expect(without.code).toBe(0);
    const found = await doctor('--codex-bin', '/bin/true');
    expect(found.checks.codex).toMatchObject({ status: 'ok', detail: '/bin/true (on the login PATH): New Codex starts it' });
  });

  it('asks for HTTPS when phones reach the agent over plain HTTP, and exits 1', async () => {
    const { code, stdout, checks } = await doctor('--host', '0.0.0.0');
    expect(checks.tls).toMatchObject({ status: 'fix', ok: false, detail: expect.stringMatching(/no HTTPS, yet phones reach the agent/) });
    expect(checks.push).toMatchObject({ status: 'fix', detail: expect.stringMatching(/phones cannot turn notifications on without HTTPS/) });
    expect(stdout).toMatch(/^FIX +tls /m);
    expect(stdout).toMatch(/\n2 to fix \(FIX\); the rest works or is optional\.\n$/);
    expect(code).toBe(1);
  });
});
