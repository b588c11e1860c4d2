import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessLister, ProcessTable } from '../../../../agent/claude/process.js';
import type { TranscriptFollowers } from '../../../../agent/claude/transcript-followers.js';
import { initialStatus, type StatusEvent } from '../../../../agent/status/reducer.js';
import type { StatusManager } from '../../../../agent/status/status-manager.js';
import { StatusMonitor } from '../../../../agent/status/status-monitor.js';
import type { TabService } from '../../../../agent/tabs/tab-service.js';
import type { Logger } from '../../../../agent/util/log.js';
import type { TabStatus } from '../../../../protocol/status.js';
import { testAgentClis } from '../../../support/agent-clis.js';

/** The monitor with one tab (pane pid 100) and stubs that record what it decides. */
function setup(status: Partial<TabStatus>, list: () => Promise<ProcessTable>, configDir: string) {
  const statuses: Record<string, TabStatus> = { t1: { ...initialStatus(0), ...status } };
  const applied: [string, StatusEvent][] = [];
  const warnings: string[] = [];
  const log = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {}, flush: async () => {} } satisfies Logger;
  const monitor = new StatusMonitor({
    status: {
      snapshot: () => ({ ...statuses }),
      get: (key: string) => statuses[key],
      apply: (key: string, event: StatusEvent) => applied.push([key, event]),
    } as unknown as StatusManager,
    tabs: {
      discover: async () => [],
      refreshPanes: async () => {},
      tab: (id: string) => (id === 't1' ? {} : undefined),
      panePid: (id: string) => (id === 't1' ? 100 : undefined),
    } as unknown as TabService,
    log,
    cliOf: () => testAgentClis({ dataDir: configDir, claudeConfigDir: configDir, log }).claude,
    transcripts: { acquire() {}, release() {} } as unknown as TranscriptFollowers,
    transcriptPollMs: 1_000,
    safetyPollMs: null,
    processes: { kind: 'ps', list } satisfies ProcessLister,
  });
  return { monitor, statuses, applied, warnings };
}

const withClaude: ProcessTable = new Map([
  [100, { ppid: 1, comm: 'zsh' }],
  [101, { ppid: 100, comm: 'claude' }],
]);
const withoutClaude: ProcessTable = new Map([[100, { ppid: 1, comm: 'zsh' }]]);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pocketmux-monitor-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('status monitor through the process lister', () => {
  it('takes a tab for gone only when a look at the processes finds no claude in its pane', async () => {
    const found = setup({ state: 'busy', claudeRunning: true }, async () => withClaude, dir);
    await found.monitor.safetyPoll();
    expect(found.applied).toEqual([]);

    const gone = setup({ state: 'busy', claudeRunning: true }, async () => withoutClaude, dir);
    await gone.monitor.safetyPoll();
    expect(gone.applied.map(([key, e]) => [key, e.kind])).toEqual([['t1', 'process-gone']]);
  });

  it('decides nothing when ps fails, and says so', async () => {
    const failing = setup({ state: 'busy', claudeRunning: true }, async () => Promise.reject(new Error('ps timed out')), dir);
    await failing.monitor.safetyPoll();
    expect(failing.applied).toEqual([]);
    expect(failing.warnings).toContain('could not list processes');

    const unknown = setup({ state: 'unknown', claudeRunning: true }, async () => Promise.reject(new Error('ps timed out')), dir);
    await unknown.monitor.recover();
    expect(unknown.applied).toEqual([]);
  });

  it('leaves a tab alone when a hook came while the processes were listed', async () => {
    let s: ReturnType<typeof setup> | null = null;
    s = setup({ state: 'busy', claudeRunning: true, lastHookAt: 5 }, async () => {
      // A new claude spoke while ps ran: it is newer than the look.
      if (s) s.statuses.t1 = { ...(s.statuses.t1 as TabStatus), state: 'busy', lastHookAt: 6 };
      return withoutClaude;
    }, dir);
    await s.monitor.safetyPoll();
    expect(s.applied).toEqual([]);
  });

  it('recovers an unknown tab from one look', async () => {
    const s = setup({ state: 'unknown', claudeRunning: true }, async () => withClaude, dir);
    await s.monitor.recover();
    expect(s.applied.map(([, e]) => e)).toMatchObject([{ kind: 'recovered', state: 'busy', claudeRunning: true }]);
  });
});
