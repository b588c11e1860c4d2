/**
 * Agent memory with 20 real Claude tabs: each runs the real Claude Code CLI against the
 * stand-in API, and the agent follows all of them (hooks, statusLine, process checks).
 */
import { mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { StatusServerMessage, TabStatus } from '../../protocol/status.js';
import { cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { procMemory } from '../support/channels.js';
import { CLAUDE_BIN, prepareClaudeEnv } from '../support/claude-env.js';
import { api, claim, deviceSocket } from '../support/client.js';
import { eventually } from '../support/eventually.js';
import { FakeAnthropic } from '../support/fake-anthropic.js';

export interface ClaudeTabsResult {
  tabs: number;
  agentRssBeforeKiB: number;
  agentRssKiB: number;
  claudeRssKiB: number;
}

const rss = (pid: number) => procMemory(pid, 'VmRSS') / 1024;

export async function claudeTabsBench(count = 20, progress: (line: string) => void = () => undefined): Promise<ClaudeTabsResult> {
  const fake = await FakeAnthropic.start();
  const env = newTestEnvironment();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  const project = realpathSync(join(env.home, 'project'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  try {
    const agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: claude.env });
    const session = await claim(agent, 'bench');
    const ws = await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: project });
    const statuses = new Map<string, TabStatus>();
    const socket = deviceSocket(session, '/api/status');
    socket.on('message', (d) => {
      const m = JSON.parse(String(d)) as StatusServerMessage;
      if (m.type === 'status:update') statuses.set(m.tabId, m.status);
    });
    await new Promise((r) => socket.once('open', r));
    const before = rss(agent.pid);
    const tabs: TabView[] = [];
    for (let i = 0; i < count; i++) {
      const res = await api<TabView>(session, 'POST', '/api/tabs', { workspaceId: ws.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
      if (res.status !== 201) throw new Error(`could not create a Claude tab: ${JSON.stringify(res.body)}`);
      tabs.push(res.body);
    }
    progress(`  ${count} Claude tabs created, waiting for every claude to start`);
    await eventually(() => tabs.every((t) => statuses.get(t.id)?.claudeRunning), 120_000, `${count} Claude tabs to start`);
    // Let statusLine reports and the first safety-net checks settle.
    await new Promise((r) => setTimeout(r, 3000));
    const agentRss = rss(agent.pid);
    let claudeRss = 0;
    // Claude's own memory, for scale: every claude process whose session file is in this HOME.
    for (const file of readdirSafe(join(env.home, '.claude', 'sessions'))) {
      const pid = Number(file.replace(/\.json$/, ''));
      if (Number.isInteger(pid)) {
        try {
          claudeRss += rss(pid);
        } catch {
          // Gone.
        }
      }
    }
    socket.close();
    return { tabs: count, agentRssBeforeKiB: before, agentRssKiB: agentRss, claudeRssKiB: claudeRss };
  } finally {
    await cleanupAgents();
    await fake.close();
    claude.cleanup();
  }
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
