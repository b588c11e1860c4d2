import type { AgentCli } from '../agents/agent-cli.js';
import { type ProcessLister, type ProcessTable, processLister } from '../claude/process.js';
import type { TranscriptFollowers } from '../claude/transcript-followers.js';
import type { TranscriptReader, TranscriptSummary } from '../claude/transcript-reader.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import type { StatusManager } from './status-manager.js';
import type { TabStatus } from '../../protocol/status.js';
import type { Disposable } from '../util/disposable.js';

export interface MonitorOptions {
  status: StatusManager;
  tabs: TabService;
  log: Logger;
  /** The agent CLI of a session (wiring/agent-clis.ts): what runs in its pane, whether its log is read. */
  cliOf: (key: string) => AgentCli;
  /** The agent's readers, one per transcript file, shared with the timelines. */
  transcripts: TranscriptFollowers;
  transcriptPollMs: number;
  /** Fixed period, or null for 30 s growing to 60 s with the number of Claude tabs. */
  safetyPollMs: number | null;
  /** Where the process table comes from; by default /proc, or `ps` without it (macOS). */
  processes?: ProcessLister;
  /** Whether the claude of a session outside the tabs still runs, as far as the agent knows. */
  outsideRunning?: (key: string) => boolean;
}

/** What an `unknown` tab really is, from its process and transcript. */
export function recoveredState(claudeRunning: boolean, transcript: TranscriptSummary | null, lastHookAt: number | null): TabStatus['state'] {
  if (!claudeRunning) return 'idle';
  if (!transcript) return 'busy';
  if (transcript.interrupt && Date.parse(transcript.interrupt.at) > (lastHookAt ?? 0)) return 'idle';
  const ended = transcript.turnEndedAt;
  if (ended && (!transcript.lastPromptAt || Date.parse(ended) >= Date.parse(transcript.lastPromptAt))) return 'ready-for-review';
  return 'busy';
}

/**
 * Everything that fills the gaps hooks leave, never deciding state on its own authority
 * while hooks speak: restart recovery, the safety-net poll (claude gone from its pane), and
 * the synthetic interrupt read from the transcript (Claude fires no hook for Esc).
 */
export class StatusMonitor implements Disposable {
  /** The readers this monitor holds, by tab: only while the tab works or is being recovered. */
  private readonly readers = new Map<string, TranscriptReader>();
  private transcriptTimer: NodeJS.Timeout | null = null;
  private safetyTimer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly opts: MonitorOptions) {}

  async start(): Promise<void> {
    await this.recover();
    this.transcriptTimer = setInterval(() => void this.watchTranscripts(), this.opts.transcriptPollMs);
    this.scheduleSafetyPoll();
  }

  dispose(): void {
    this.stopped = true;
    if (this.transcriptTimer) clearInterval(this.transcriptTimer);
    if (this.safetyTimer) clearTimeout(this.safetyTimer);
    for (const key of [...this.readers.keys()]) this.releaseReader(key);
  }

  private claudeIn(tabId: string, table: ProcessTable): boolean {
    const pid = this.opts.tabs.panePid(tabId);
    return pid !== undefined && this.opts.cliOf(tabId).runsIn(pid, table);
  }

  /** One look at the processes for every tab; null (and a warning) when it failed. */
  private async processTable(): Promise<ProcessTable | null> {
    const lister = this.opts.processes ?? processLister();
    try {
      return await lister.list();
    } catch (err) {
      this.opts.log.warn('could not list processes', { via: lister.kind, error: (err as Error).message });
      return null;
    }
  }

  private async summaryOf(tabId: string, status: TabStatus): Promise<TranscriptSummary | null> {
    if (!status.transcriptPath || !this.opts.cliOf(tabId).readsTranscript) return null;
    let reader = this.readers.get(tabId);
    if (!reader || reader.path !== status.transcriptPath) {
      this.releaseReader(tabId);
      reader = this.opts.transcripts.acquire(status.transcriptPath);
      this.readers.set(tabId, reader);
    }
    const poll = await reader.poll();
    return poll.missing ? null : reader.summary();
  }

  /** After a restart: every `unknown` tab is settled, silently (the reducer sends no push). */
  async recover(): Promise<void> {
    await this.opts.tabs.refreshPanes().catch(() => undefined);
    const unknown = Object.entries(this.opts.status.snapshot()).filter(([, status]) => status.state === 'unknown');
    if (unknown.length === 0) return;
    // Without a process table nothing is known: the tabs stay unknown until a hook speaks.
    const table = await this.processTable();
    if (!table) return;
    for (const [key, status] of unknown) {
      const running = this.opts.tabs.tab(key) !== undefined ? this.claudeIn(key, table) : (this.opts.outsideRunning?.(key) ?? false);
      const summary = running ? await this.summaryOf(key, status).catch(() => null) : null;
      const state = recoveredState(running, summary, status.lastHookAt);
      // A hook that came while we looked knows better than the look.
      if (this.opts.status.get(key)?.lastHookAt !== status.lastHookAt) continue;
      this.opts.status.apply(key, { kind: 'recovered', state, claudeRunning: running, at: Date.now() });
      this.opts.log.info('recovered the status of a tab', { tab: key, state });
    }
    this.releaseIdleReaders();
  }

  /** While a tab works, its transcript is followed for the interrupt that fires no hook. */
  private async watchTranscripts(): Promise<void> {
    for (const [key, status] of Object.entries(this.opts.status.snapshot())) {
      if (this.stopped) return;
      if (status.state !== 'busy' && status.state !== 'needs-input') continue;
      try {
        const summary = await this.summaryOf(key, status);
        if (summary?.interrupt) this.opts.status.apply(key, { kind: 'interrupt', at: Date.parse(summary.interrupt.at) });
      } catch (err) {
        this.opts.log.debug('transcript read failed', { tab: key, error: (err as Error).message });
      }
    }
    this.releaseIdleReaders();
  }

  /**
   * Gives back the readers of tabs that no longer work (or are gone, or moved to another
   * transcript): an idle tab pins no reader, and the followers keep a given-back one a while,
   * so the tab's next turn resumes from where this one stopped.
   */
  private releaseIdleReaders(): void {
    for (const [key, reader] of [...this.readers]) {
      const status = this.opts.status.get(key);
      const working = status?.state === 'busy' || status?.state === 'needs-input';
      if (!working || status?.transcriptPath !== reader.path) this.releaseReader(key);
    }
  }

  private releaseReader(tabId: string): void {
    const reader = this.readers.get(tabId);
    if (!reader) return;
    this.readers.delete(tabId);
    this.opts.transcripts.release(reader);
  }

  private scheduleSafetyPoll(): void {
    if (this.stopped) return;
    const claudeTabs = Object.keys(this.opts.status.snapshot()).length;
    const period = this.opts.safetyPollMs ?? Math.min(60_000, 30_000 + 1_500 * claudeTabs);
    this.safetyTimer = setTimeout(() => {
      void this.safetyPoll().finally(() => this.scheduleSafetyPoll());
    }, period);
  }

  /**
   * Looks at tmux (sessions made outside the app, titles, dead tabs) and at whether claude
   * still runs in every tab with a status. A tab whose claude is gone goes idle, which also
   * ends a `busy` stuck after a crash.
   */
  async safetyPoll(): Promise<void> {
    try {
      await this.opts.tabs.discover();
      await this.opts.tabs.refreshPanes();
    } catch (err) {
      this.opts.log.warn('safety poll could not list panes', { error: (err as Error).message });
      return;
    }
    const watched = Object.entries(this.opts.status.snapshot()).filter(
      ([key, status]) => this.opts.tabs.tab(key) !== undefined && (status.claudeRunning || status.state !== 'idle'),
    );
    if (watched.length === 0) return;
    // Statuses first, processes second: a claude counted as running was started before the
    // look. A failed look says nothing about claude: no tab is taken for gone on it.
    const table = await this.processTable();
    if (!table) return;
    for (const [key, status] of watched) {
      // A hook that came while `ps` ran is a claude newer than the look: the next poll decides.
      if (this.opts.status.get(key)?.lastHookAt !== status.lastHookAt) continue;
      if (!this.claudeIn(key, table)) this.opts.status.apply(key, { kind: 'process-gone', at: Date.now() });
    }
  }
}
