/**
 * Each CLI command loads only what it needs: `--version` and help load nothing of the agent,
 * and the loopback commands (`tabs`, `tab status`, `approvals`, `pair`) talk to a running
 * agent without loading the code that runs one (Express, web-push, node-pty, the routes).
 * Checked by the modules each process really loaded, not by timing it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, agentEnv, cleanupAgents, newTestEnvironment, runCli, startAgent } from '../support/agent.js';
import { AGENT_ONLY, loadedParts, moduleTrace } from '../support/module-trace.js';

let agent: AgentHandle;
let agentTrace: ReturnType<typeof moduleTrace>;
let tabId: string;
let traces = 0;

beforeAll(async () => {
  const env = newTestEnvironment();
  agentTrace = moduleTrace(join(env.root, 'agent.trace'));
  agent = await startAgent({ reuse: env, env: agentTrace.env });
  const created = await runCli(['tab', 'new', agent.home, '--data-dir', agent.dataDir], agentEnv(agent));
  expect(created.code).toBe(0);
  tabId = created.stdout.trim();
});
afterAll(cleanupAgents);

/** Runs the CLI with its modules traced; returns what it printed and every module it loaded. */
async function tracedCli(...args: string[]) {
  const trace = moduleTrace(join(agent.root, `cli-${++traces}.trace`));
  const run = await runCli([...args, '--data-dir', agent.dataDir], agentEnv(agent, trace.env));
  return { ...run, modules: trace.modules() };
}

describe('what each CLI command loads', () => {
  it('the tracer sees the agent load what the commands must not', () => {
    // Without this the checks below could pass on a trace that sees nothing.
    expect(loadedParts(agentTrace.modules(), AGENT_ONLY)).toEqual(Object.keys(AGENT_ONLY));
  });

  it('--version and --help load no dependency and nothing of the agent', async () => {
    const version = await tracedCli('--version');
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
    const help = await tracedCli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:');
    for (const run of [version, help]) {
      expect(run.modules.some((url) => url.endsWith('/dist/agent/cli/main.js'))).toBe(true);
      expect(run.modules.filter((url) => url.includes('/node_modules/'))).toEqual([]);
      expect(loadedParts(run.modules, AGENT_ONLY)).toEqual([]);
    }
  });

  it('tabs, tab status, approvals and pair talk to the agent without loading it', async () => {
    const tabs = await tracedCli('tabs');
    expect(tabs.code).toBe(0);
    expect(tabs.stdout).toContain(tabId);
    const status = await tracedCli('tab', 'status', tabId);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^shell/);
    const approvals = await tracedCli('approvals', '--json');
    expect(approvals.code).toBe(0);
    expect(JSON.parse(approvals.stdout)).toEqual([]);
    const pair = await tracedCli('pair');
    expect(pair.code).toBe(0);
    expect(pair.stdout).toMatch(/enter the code: [A-Z0-9]{4}-[A-Z0-9]{4}/);

    for (const run of [tabs, status, approvals, pair]) {
      expect(run.modules.some((url) => url.endsWith('/dist/agent/cli/remote.js'))).toBe(true);
      expect(loadedParts(run.modules, AGENT_ONLY)).toEqual([]);
    }
    // Only pair draws a QR code.
    expect(loadedParts(tabs.modules, { qrcode: '/node_modules/qrcode/' })).toEqual([]);
    expect(loadedParts(pair.modules, { qrcode: '/node_modules/qrcode/' })).toEqual(['qrcode']);
  });
});
