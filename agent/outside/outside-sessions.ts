/**
 * Every Claude session that reports through the user hooks from outside pocketmux's tabs: what
 * its hooks told of it (session id, working directory, tmux server and pane), the claude
 * process found in Claude's own session files, and when it was heard of. A session is
 * forgotten when its claude exits: SessionEnd, or the process (else the pane) gone.
 */
import { EventEmitter } from 'node:events';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { NO_TERMINAL_REASON } from '../../protocol/close-codes.js';
import { currentSessionKey } from '../../protocol/hook-contract.js';
import { visibleText } from '../../protocol/safe-text.js';
import { isClaudeOfSession, isProvenClaudeOfSession, type ProcessInspector, processLister, readSessionFile } from '../claude/process.js';
import { readJsonFile } from '../store/atomic-file.js';
import { GatheredWriter } from '../store/gathered-writer.js';
import type { Logger } from '../util/log.js';
import { type OutsidePane, isPaneId, parseTmuxEnv } from './outside-tmux.js';
import { processAlive } from '../util/process-alive.js';
import type { Disposable } from '../util/disposable.js';
import { AGENT_KINDS, AGENT_NAMES, type AgentKind } from '../../protocol/agents.js';

export interface OutsideSession {
  key: string;
  /** The CLI it runs: Claude's user hooks report `claude`, Codex's `codex`. */
  agent: AgentKind;
  sessionId: string;
  cwd: string | null;
  /** Its pane and tmux server, when it runs in tmux. */
  tmux: OutsidePane | null;
  pid: number | null;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** What one hook (or statusLine report) tells of the session that sent it. */
export interface OutsideReport {
  /** Which CLI's hooks sent it; Claude's when not said (the statusLine is Claude's only). */
  agent?: AgentKind;
  sessionId: string;
  cwd: string | undefined;
  /** The `X-Pocketmux-Tmux` and `X-Pocketmux-Pane` headers: `$TMUX` and `$TMUX_PANE`. */
  tmuxEnv: string | undefined;
  pane: string | undefined;
  /** A SessionStart: the one report that may bring back a session Claude said had ended (`claude --resume`). */
  start?: boolean;
}

export type ForgetReason = 'session-ended' | 'process-gone' | 'pane-gone' | 'too-many' | 'status-dropped' | 'adopted';

/** Why nothing may reach an outside session's pane: it has none, or its claude no longer runs there. */
export class OutsidePaneError extends Error {
  constructor(
    readonly reason: 'no-tmux' | 'claude-gone',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The longest session id kept: what a hook payload allows (protocol/hooks.ts). A statusLine
 * report's is not bounded there; a longer one is no Claude's and is not kept, since one entry
 * the file cannot hold would make the whole file unreadable at the next start.
 */
const MAX_SESSION_ID = 256;
const MAX_CWD = 4096;

const Persisted = z.object({
  version: z.literal(1),
  sessions: z
    .array(
      z.object({
        key: z.string().max(80),
        // Absent in the files of agents from before Codex: every session was a Claude's.
        agent: z.enum(AGENT_KINDS).default('claude'),
        sessionId: z.string().max(MAX_SESSION_ID),
        cwd: z.string().max(MAX_CWD).nullable(),
        tmux: z
          .object({ socketPath: z.string().max(1024), serverPid: z.number().int().nullable().default(null), pane: z.string().regex(/^%\d{1,9}$/) })
          .nullable(),
        pid: z.number().int().positive().nullable(),
        firstSeenAt: z.number(),
        lastSeenAt: z.number(),
      }),
    )
    .max(10_000),
});

/**
 * How often the sweep looks through the session files again for sessions whose claude is not
 * known (one from a claude with another config dir may never be found); a new session is
 * looked for at once.
 */
const SEARCH_EVERY_MS = 30_000;
/** For this long after a session is first heard of, every sweep looks for its claude. */
const SEARCH_YOUNG_MS = 60_000;
/** Session files looked at per sweep at most: one per running claude on the machine. */
const MAX_SESSION_FILES = 1_000;
/**
 * Sessions Claude said had ended, remembered at most: a report sent before its SessionEnd can
 * arrive after it (the statusLine's, or a hook racing the end), and must not bring it back.
 */
const MAX_ENDED = 1_000;

export interface OutsideSessionsOptions {
  path: string;
  log: Logger;
  /** Where Claude keeps `sessions/<pid>.json`: the config dir the user hooks are installed in. */
  claudeConfigDir: string;
  /** Kept at most; past it the one heard of least recently is forgotten. */
  max: number;
  /** Whether a pane still exists: asked only of a session whose process is not known. */
  paneExists: (pane: OutsidePane) => Promise<boolean>;
  /** Whether a process runs; by default signal 0. */
  processAlive?: (pid: number) => boolean;
  /** Whether the CLI runs in a pane (its process tree): asked before typing into a session whose process is not known. */
  agentInPane?: (pane: OutsidePane, agent: AgentKind) => Promise<boolean>;
  /** What a process is, before it is signalled; by default this system's own (/proc, else `ps`). */
  processes?: ProcessInspector;
}

export class OutsideSessions extends EventEmitter<{ change: []; forgotten: [session: OutsideSession, reason: ForgetReason] }> implements Disposable {
  private readonly sessions = new Map<string, OutsideSession>();
  /** Keys of the sessions whose SessionEnd came, oldest first (MAX_ENDED). */
  private readonly ended = new Set<string>();
  private readonly file: GatheredWriter;
  private sweeping = false;
  /** When session files were last looked through for sessions whose claude is not known. */
  private searchedAt = 0;

  constructor(private readonly opts: OutsideSessionsOptions) {
    super();
    this.file = new GatheredWriter(opts.path, () => ({ version: 1, sessions: this.list() }) satisfies z.infer<typeof Persisted>, opts.log, 'the outside sessions file');
  }

  load(): void {
    const result = readJsonFile(this.opts.path, Persisted);
    if (result.status === 'corrupt') {
      this.opts.log.error('the outside sessions file is corrupt; starting with none', { reason: result.reason, setAsideAs: result.setAsideAs });
      return;
    }
    if (result.status !== 'ok') return;
    const kept = [...result.value.sessions].sort((a, b) => b.lastSeenAt - a.lastSeenAt).slice(0, this.opts.max);
    for (const s of kept.reverse()) {
      const key = currentSessionKey(s.key);
      this.sessions.set(key, { ...s, key });
    }
  }

  has(key: string): boolean {
    return this.sessions.has(key);
  }

  get(key: string): OutsideSession | undefined {
    return this.sessions.get(key);
  }

  list(): OutsideSession[] {
    return [...this.sessions.values()];
  }

  views(): OutsideSessionView[] {
    return this.list().map(outsideView);
  }

  /**
   * A hook from a session outside the tabs. New sessions, and a changed directory or pane,
   * are told to listeners; a hook that only says "still here" is not (the status says that).
   * Returns false for a report that is not taken: from a session that has ended (only its
   * SessionStart brings it back), or one whose id is too long to keep. Nothing else is done
   * with such a report either: the session is over.
   */
  report(key: string, report: OutsideReport, at = Date.now()): boolean {
    if (report.sessionId.length > MAX_SESSION_ID) {
      this.opts.log.debug('ignored a Claude session outside the tabs with an overlong session id', { key, length: report.sessionId.length });
      return false;
    }
    if (this.ended.has(key)) {
      if (!report.start) {
        this.opts.log.debug('ignored a report from a Claude session outside the tabs that has ended', { key });
        return false;
      }
      this.ended.delete(key);
    }
    const before = this.sessions.get(key);
    const tmuxEnv = parseTmuxEnv(report.tmuxEnv);
    const tmux = tmuxEnv && isPaneId(report.pane) ? { socketPath: tmuxEnv.socketPath, serverPid: tmuxEnv.serverPid, pane: report.pane } : null;
    const reportedCwd = typeof report.cwd === 'string' && report.cwd.length <= MAX_CWD ? report.cwd : undefined;
    const cwd = reportedCwd ?? before?.cwd ?? null;
    if (before) {
      before.lastSeenAt = at;
      // A hook without the headers (the statusLine has them too, but a script may not) keeps what is known.
      const nextTmux = report.tmuxEnv === undefined && report.pane === undefined ? before.tmux : tmux;
      // Nothing new: no write for this hook. The time it was heard of only orders the cap, and
      // goes to the file with the next change or at shutdown.
      if (before.cwd === cwd && samePane(before.tmux, nextTmux)) return true;
      before.cwd = cwd;
      before.tmux = nextTmux;
      this.persist();
      this.emit('change');
      return true;
    }
    this.sessions.set(key, { key, agent: report.agent ?? 'claude', sessionId: report.sessionId, cwd, tmux, pid: null, firstSeenAt: at, lastSeenAt: at });
    this.forgetLeastRecent(key);
    this.persist();
    this.emit('change');
    void this.findProcesses()
      // The look is not awaited: the log shows when it is over, and whether it found the claude.
      .then(() => this.opts.log.debug('looked for the claude of a new session outside the tabs', { key, pid: this.sessions.get(key)?.pid ?? null }))
      .catch((err: Error) => this.opts.log.debug('could not read claude session files', { error: err.message }));
    return true;
  }

  /**
   * Claude said it ended, or its status was let go: forgotten, on clients too. A session Claude
   * said ended is remembered as ended, whether or not it was known (the sweep may have let it
   * go first), so a late report does not bring it back.
   */
  forget(key: string, reason: ForgetReason): void {
    if (reason === 'session-ended') this.noteEnded(key);
    const session = this.sessions.get(key);
    if (!session) return;
    this.sessions.delete(key);
    this.opts.log.debug('forgot a Claude session outside the tabs', { key, reason });
    this.persist();
    this.emit('forgotten', session, reason);
    this.emit('change');
  }

  /**
   * Looks for each session's claude in Claude's session files, and forgets the sessions
   * whose claude is gone: the process when known (or its session file removed, as claude does
   * on exit), else the pane. A session with neither stays until SessionEnd or the cap.
   */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const unknown = this.list().filter((s) => s.pid === null && s.agent === 'claude');
      const now = Date.now();
      // Claude writes its session file a moment after its first hook: new sessions are looked for at every sweep.
      if (unknown.some((s) => now - s.firstSeenAt < SEARCH_YOUNG_MS) || (unknown.length > 0 && now - this.searchedAt >= SEARCH_EVERY_MS)) await this.findProcesses();
      for (const s of this.list()) {
        // A session forgotten (and perhaps heard of again) during an earlier await is not this one.
        const current = () => this.sessions.get(s.key) === s;
        if (s.pid !== null) {
          // Claude removes its file on exit; a file naming another session, or another start time, is not this claude.
          if (!this.isItsClaude(s, s.pid) && current()) this.forget(s.key, 'process-gone');
        } else if (s.tmux && !(await this.opts.paneExists(s.tmux).catch(() => true)) && current()) {
          this.forget(s.key, 'pane-gone');
        }
      }
    } finally {
      this.sweeping = false;
    }
  }

  /**
   * Whether the session's claude still runs where it was: its process when known, else a
   * claude in its pane. A pane often outlives its claude (the shell it ran from), and a reply
   * typed there would run as a command.
   */
  async stillRunning(session: OutsideSession): Promise<boolean> {
    if (session.pid !== null) return this.isItsClaude(session, session.pid);
    if (!session.tmux) return true;
    return this.opts.agentInPane ? this.opts.agentInPane(session.tmux, session.agent) : this.opts.paneExists(session.tmux);
  }

  /**
   * Its pane, while its claude still runs there: the one rule for everything that reaches the
   * pane, a browser terminal as much as typed text and keys, since a pane often outlives its
   * claude (the shell it ran from) and what is typed there would run as a command. A session
   * whose claude is gone is forgotten. Throws OutsidePaneError.
   */
  async paneToDrive(session: OutsideSession): Promise<OutsidePane> {
    if (!session.tmux) throw new OutsidePaneError('no-tmux', NO_TERMINAL_REASON);
    if (!(await this.stillRunning(session))) {
      this.forget(session.key, 'process-gone');
      throw new OutsidePaneError('claude-gone', 'its claude is no longer running in that pane');
    }
    return session.tmux;
  }

  /** Whether the process last seen as this session's claude is still alive: the status monitor asks. */
  claudeAlive(key: string): boolean {
    const pid = this.sessions.get(key)?.pid ?? null;
    return pid !== null && (this.opts.processAlive ?? processAlive)(pid);
  }

  /** Whether `pid` is this session's claude, now. */
  isItsClaude(session: OutsideSession, pid: number): boolean {
    return isClaudeOfSession(this.opts.claudeConfigDir, pid, session.sessionId, this.opts.processAlive ?? processAlive);
  }

  /**
   * Whether `pid` is proven to be this session's claude, as a signal to it needs: its session
   * file's start time is the process's, and the process runs claude (isProvenClaudeOfSession).
   */
  isProvenClaude(session: OutsideSession, pid: number): Promise<boolean> {
    return isProvenClaudeOfSession(this.opts.claudeConfigDir, pid, session.sessionId, this.opts.processes ?? processLister());
  }

  /**
   * Claude's `sessions/<pid>.json` files, matched to sessions by session id: a live claude of
   * that session only (a file left by a killed claude names a dead or reused pid).
   */
  private async findProcesses(): Promise<void> {
    this.searchedAt = Date.now();
    const dir = join(this.opts.claudeConfigDir, 'sessions');
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    // Codex keeps no such files: its sessions are followed by their pane and its SessionEnd.
    const wanted = new Map(this.list().filter((s) => s.pid === null && s.agent === 'claude').map((s) => [s.sessionId, s]));
    if (wanted.size === 0) return;
    let changed = false;
    for (const name of names.slice(0, MAX_SESSION_FILES)) {
      const m = /^(\d{1,10})\.json$/.exec(name);
      if (!m) continue;
      const pid = Number(m[1]);
      const file = readSessionFile(this.opts.claudeConfigDir, pid);
      const session = file?.sessionId ? wanted.get(file.sessionId) : undefined;
      if (!session || this.sessions.get(session.key) !== session || !this.isItsClaude(session, pid)) continue;
      session.pid = pid;
      changed = true;
    }
    if (changed) {
      this.persist();
      this.emit('change');
    }
  }

  /** Whether Claude said the session ended, and no SessionStart brought it back since. */
  hasEnded(key: string): boolean {
    return this.ended.has(key);
  }

  private noteEnded(key: string): void {
    this.ended.delete(key);
    this.ended.add(key);
    for (const oldest of this.ended) {
      if (this.ended.size <= MAX_ENDED) break;
      this.ended.delete(oldest);
    }
  }

  private forgetLeastRecent(keep: string): void {
    while (this.sessions.size > this.opts.max) {
      let oldest: OutsideSession | null = null;
      for (const s of this.sessions.values()) if (s.key !== keep && (!oldest || s.lastSeenAt < oldest.lastSeenAt)) oldest = s;
      if (!oldest) return;
      this.forget(oldest.key, 'too-many');
    }
  }

  private persist(): void {
    this.file.schedule();
  }

  flush(): Promise<void> {
    return this.file.flush();
  }

  /** The agent stops: what is not yet on disk is written. */
  dispose(): Promise<void> {
    return this.flush();
  }
}

function samePane(a: OutsidePane | null, b: OutsidePane | null): boolean {
  return a === b || (a !== null && b !== null && a.socketPath === b.socketPath && a.serverPid === b.serverPid && a.pane === b.pane);
}

/**
 * How a notification names an outside session: its group and its project directory's name,
 * control and bidi characters written out.
 */
export function outsidePlace(session: OutsideSession | undefined): { workspace: string; tab: string; agent: string } | null {
  if (!session) return null;
  const name = session.cwd ? basename(session.cwd) : '';
  return { workspace: 'Outside pocketmux', tab: name ? visibleText(name) : AGENT_NAMES[session.agent], agent: AGENT_NAMES[session.agent] };
}

export function outsideView(s: OutsideSession): OutsideSessionView {
  return {
    key: s.key,
    agent: s.agent,
    sessionId: s.sessionId,
    cwd: s.cwd,
    terminal: s.tmux ? 'tmux' : 'none',
    pane: s.tmux?.pane ?? null,
    pid: s.pid,
    firstSeenAt: s.firstSeenAt,
  };
}
