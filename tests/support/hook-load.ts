/**
 * The hook load (issue 15): recorded Claude Code hook traffic replayed over many tabs of a
 * running agent at a steady rate, the way Claude delivers it (its own HTTP POST for most
 * events, hook.sh run with sh and curl for SessionStart and for tabs on command hooks), with
 * real Claude tabs taking turns beside it and several clients on /api/status. Every client's
 * stream is checked event by event (none lost, reordered or duplicated, per tab), every tab's
 * final status against what its last events imply, and the agent's status latency, memory
 * and CPU are measured. The integration test asserts the checks; the bench reports the figures.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { Agent, type ClientRequest, request } from 'node:http';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type WebSocket from 'ws';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { ClaudeState, StatusServerMessage, TabStatus } from '../../protocol/status.js';
import { type AgentHandle, newTestEnvironment, REPO_ROOT, startAgent, tmux } from './agent.js';
import { CLAUDE_BIN, type ClaudeEnv, prepareClaudeEnv } from './claude-env.js';
import { procMemory } from './channels.js';
import { ClaudeTabPane } from './claude-pane.js';
import { api, claim, createTab, pairAnother, type Session, deviceSocket } from './client.js';
import { eventually } from './eventually.js';
import { FakeAnthropic, text } from './fake-anthropic.js';
import { quantileOfSorted } from './stats.js';
import { paneEnv } from './status.js';

const FIXTURES = join(REPO_ROOT, 'tests', 'fixtures', 'claude-code-2.1.332');

export interface HookLoadOptions {
  /** Shell tabs that carry replayed hook traffic. */
  tabs: number;
  /** Hook events a second, over all those tabs. */
  rate: number;
  seconds: number;
  /** WebSocket clients on /api/status, each a paired device of its own. */
  clients: number;
  /**
   * Tabs whose every event goes through hook.sh, as for a claude on command hooks
   * (`settings-command.json`); in the others only SessionStart does, as Claude itself does.
   */
  scriptTabs: number;
  /** Claude tabs running the real CLI beside the load. */
  claudeTabs: number;
  /** Turns each of them takes during the load. */
  claudeTurns: number;
  /** How long every client may take to hear every event once the load is over. */
  deliveryTimeoutMs: number;
}

export const HOOK_LOAD_DEFAULTS: HookLoadOptions = {
  tabs: 50,
  rate: 1000,
  seconds: 60,
  clients: 8,
  scriptTabs: 1,
  claudeTabs: 2,
  claudeTurns: 2,
  deliveryTimeoutMs: 90_000,
};

/** What one client heard, against what was sent. */
export interface ClientTally {
  /** Events sent that this client never heard of. */
  lost: number;
  /** Events heard after one with a higher sequence number of the same tab. */
  reordered: number;
  /** Events heard more than once. */
  duplicated: number;
  /** Snapshots past the first: the agent found this client behind and resynced it. */
  resyncs: number;
  /** `status:update`s whose sequence number went back for their tab. */
  updatesBackwards: number;
}

export interface ClaudeTabOutcome {
  tabId: string;
  turns: number;
  /** The states client 0 saw, repeats folded. */
  states: ClaudeState[];
  /** Prompt typed (Enter) → `ready-for-review` on client 0, per turn. */
  turnMs: number[];
  ok: boolean;
}

export interface HookLoadResult {
  options: HookLoadOptions;
  sent: number;
  sentHttp: number;
  sentScript: number;
  /** From the first event sent to the last event's answer. */
  elapsedSeconds: number;
  /** Events a second actually reached. */
  rate: number;
  /** Latency from the start of the post (or of sh) to the `status:hook-event` on a client, over all clients, ms. */
  latency: { p50: number; p99: number; max: number; samples: number };
  latencyHttp: { p50: number; p99: number };
  latencyScript: { p50: number; p99: number };
  /** Start of the post → its answer, what Claude waits on for each hook (PermissionRequest left out), ms. */
  answerHttp: { p50: number; p99: number };
  /** This process's event-loop delay during the load, ms: how late it may have been to send or to read. */
  driverLoopDelay: { p50: number; p99: number };
  clients: ClientTally[];
  lost: number;
  reordered: number;
  duplicated: number;
  /** Events the agent numbered in another order than a tab sent them in. */
  intakeOutOfOrder: number;
  /** PermissionRequest hooks that a later event of their tab should have answered, and did. */
  heldAnswered: number;
  heldExpected: number;
  failedPosts: number;
  rssKiB: { before: number; peak: number; after: number };
  /** Agent CPU time during the load, in % of one core. */
  cpuPercent: number;
  /** This process's CPU time during the load (senders and clients), in % of one core. */
  driverCpuPercent: number;
  claude: ClaudeTabOutcome[];
  /** Tabs whose final status is not what their last events imply. */
  finalMismatches: string[];
  agentAlive: boolean;
  /** Every check that failed, in words; empty when all held. */
  problems: string[];
}

/** Everything the load needs: an agent that runs the real CLI against a stand-in API. */
export interface LoadAgent {
  agent: AgentHandle;
  fake: FakeAnthropic;
  claude: ClaudeEnv;
  /** The folder every tab works in, as Claude's cwd. */
  project: string;
}

/** An agent of its own (data dir, HOME, tmux socket), able to start Claude tabs. */
export async function startLoadAgent(agentEnv: Record<string, string> = {}): Promise<LoadAgent> {
  const fake = await FakeAnthropic.start({ fallback: text('Done: this turn ran during the load.') });
  const env = newTestEnvironment();
  mkdirSync(join(env.home, 'project'), { recursive: true });
  const project = realpathSync(join(env.home, 'project'));
  const claude = prepareClaudeEnv({ baseUrl: fake.url, home: env.home, projectDirs: [project] });
  const agent = await startAgent({ reuse: env, args: ['--claude-bin', CLAUDE_BIN], env: { ...claude.env, ...agentEnv } });
  return { agent, fake, claude, project };
}

function sortedOf(values: number[]): Float64Array {
  return Float64Array.from(values).sort();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first of `outcomes` to settle, or 'timeout' after `ms`; the timer goes either way. */
async function firstOf<T extends string>(outcomes: Promise<T>[], ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([...outcomes, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function rssKiB(pid: number): number {
  try {
    return procMemory(pid, 'VmRSS') / 1024;
  } catch {
    return 0;
  }
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/** The event-loop delay is sampled by a timer of this period, which its figures include. */
const LOOP_RESOLUTION_MS = 2;

/** Linux counts /proc CPU times in USER_HZ, 100 on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

type Payload = Record<string, unknown> & { hook_event_name: string };

function capturedSession(): Payload[] {
  return readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Payload);
}

/** Turns replayed per session between SessionStart and SessionEnd: a session is many prompts. */
const TURNS_PER_SESSION = 4;

/**
 * One tab's replay of the captured session, looping: SessionStart, the captured prompts and
 * tools (UserPromptSubmit, PreToolUse, PermissionRequest, Notification, PostToolUse, Stop, ...)
 * several times over, SessionEnd; then the same claude resumed. The tab's session id,
 * transcript and cwd are its own, and every tool call gets its own id.
 */
function* replay(captured: Payload[], who: { sessionId: string; transcript: string; cwd: string; name: string }): Generator<Payload> {
  const start = captured[0] as Payload;
  const end = captured.at(-1) as Payload;
  const turns = captured.slice(1, -1);
  let tool = 0;
  let prompt = randomUUID();
  const own = (p: Payload): Payload => {
    const out: Payload = { ...p, session_id: who.sessionId, transcript_path: who.transcript, cwd: who.cwd };
    if (p.hook_event_name === 'UserPromptSubmit') prompt = randomUUID();
    if ('prompt_id' in p) out.prompt_id = prompt;
    if (p.hook_event_name === 'PreToolUse') tool++;
    if ('tool_use_id' in p) out.tool_use_id = `toolu_${who.name}_${tool}`;
    return out;
  };
  for (let session = 0; ; session++) {
    yield own({ ...start, source: session === 0 ? 'startup' : 'resume' });
    for (let t = 0; t < TURNS_PER_SESSION; t++) for (const p of turns) yield own(p);
    yield own(end);
  }
}

/** What a tab's status must be after its events, by the state table of the design. */
export interface ImpliedStatus {
  state: ClaudeState;
  claudeRunning: boolean;
}

/**
 * One event's step through the design's state table (written out here, not taken from the
 * agent's reducer): what the status must be after it.
 */
export function impliedStep(before: ImpliedStatus, e: Payload): ImpliedStatus {
  const claudeRunning = e.hook_event_name !== 'SessionEnd';
  switch (e.hook_event_name) {
    case 'SessionStart':
    case 'SessionEnd':
      return { state: 'idle', claudeRunning };
    case 'UserPromptSubmit':
      return { state: 'busy', claudeRunning };
    case 'PermissionRequest':
      return { state: 'needs-input', claudeRunning };
    case 'Notification':
      return { state: e.notification_type === 'permission_prompt' || e.notification_type === 'worker_permission_prompt' ? 'needs-input' : before.state, claudeRunning };
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return { state: before.state === 'needs-input' ? 'busy' : before.state, claudeRunning };
    case 'Stop':
    case 'StopFailure':
      return { state: 'ready-for-review', claudeRunning };
    default:
      return { state: before.state, claudeRunning };
  }
}

/** Events that show Claude no longer waits on a permission dialog of its tab. */
const SETTLING_EVENTS = new Set(['PostToolUse', 'PostToolUseFailure', 'UserPromptSubmit', 'Stop', 'StopFailure', 'SessionEnd']);

/** A shell tab made to carry one Claude's hook traffic. */
interface ReplayTab {
  tab: TabView;
  env: { TMUX: string; TMUX_PANE: string };
  viaScript: boolean;
  events: Generator<Payload>;
  /** Sequence number the agent had for the tab before the load. */
  base: number;
  sentNames: string[];
  /** What the events sent so far imply. */
  implied: ImpliedStatus;
  /** When each event's post (or sh) started, performance.now(). */
  sentAt: number[];
  sentScript: boolean[];
  /** How many events had been sent when the last one that settles a held PermissionRequest was. */
  settledUpTo: number;
}

/**
 * One /api/status client: every hook event's sequence number and arrival time per tab, the
 * states of the tabs asked for, and anything out of order.
 */
class LoadClient {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  readonly heard = new Map<string, { seqs: number[]; at: number[]; names: string[] }>();
  readonly latest = new Map<string, TabStatus>();
  readonly states = new Map<string, ClaudeState[]>();
  syncs = 0;
  updatesBackwards = 0;
  closed: { code: number; reason: string } | null = null;
  private readonly waiters = new Map<string, { seq: number; resolve: () => void }[]>();

  constructor(
    session: Session,
    private readonly follow: Set<string>,
  ) {
    this.ws = deviceSocket(session, '/api/status');
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
    this.ws.on('message', (data) => {
      const at = performance.now();
      const msg = JSON.parse(String(data)) as StatusServerMessage;
      if (msg.type === 'status:hook-event') {
        const { tabId, seq, event } = msg.hook;
        let list = this.heard.get(tabId);
        if (!list) {
          list = { seqs: [], at: [], names: [] };
          this.heard.set(tabId, list);
        }
        list.seqs.push(seq);
        list.at.push(at);
        list.names.push(event);
        const waiting = this.waiters.get(tabId);
        if (waiting) {
          const due = waiting.filter((w) => w.seq <= seq);
          if (due.length > 0) {
            this.waiters.set(
              tabId,
              waiting.filter((w) => w.seq > seq),
            );
            for (const w of due) w.resolve();
          }
        }
      } else if (msg.type === 'status:update') {
        this.note(msg.tabId, msg.status);
      } else if (msg.type === 'status:sync') {
        this.syncs++;
        for (const [tabId, status] of Object.entries(msg.tabs)) this.note(tabId, status, true);
      }
    });
  }

  private note(tabId: string, status: TabStatus, fromSync = false): void {
    const before = this.latest.get(tabId);
    if (before && status.seq < before.seq && !fromSync) this.updatesBackwards++;
    this.latest.set(tabId, status);
    if (this.follow.has(tabId)) {
      const list = this.states.get(tabId) ?? [];
      if (list.at(-1) !== status.state) list.push(status.state);
      this.states.set(tabId, list);
    }
  }

  /** Resolves once the tab's hook event `seq` (or a later one) has been heard. */
  heardSeq(tabId: string, seq: number): Promise<void> {
    const last = this.heard.get(tabId)?.seqs.at(-1);
    if (last !== undefined && last >= seq) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiters.get(tabId) ?? [];
      list.push({ seq, resolve });
      this.waiters.set(tabId, list);
    });
  }

  highest(tabId: string): number {
    let max = 0;
    for (const s of this.heard.get(tabId)?.seqs ?? []) if (s > max) max = s;
    return max;
  }
}

/** Hands out send slots at a steady rate to whichever tab is free to send next. */
class Pacer {
  private granted = 0;
  private readonly waiting: ((go: boolean) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  startedAt = 0;

  constructor(
    private readonly rate: number,
    readonly total: number,
  ) {}

  start(): void {
    this.startedAt = performance.now();
    const tick = () => {
      const due = Math.min(this.total, Math.floor(((performance.now() - this.startedAt) / 1000) * this.rate));
      while (this.granted < due && this.waiting.length > 0) {
        this.granted++;
        (this.waiting.shift() as (go: boolean) => void)(true);
      }
      if (this.granted >= this.total) {
        for (const w of this.waiting.splice(0)) w(false);
        this.timer = null;
        return;
      }
      this.timer = setTimeout(tick, 1);
    };
    tick();
  }

  /** Waits for the next slot; false once every slot is handed out. */
  take(): Promise<boolean> {
    if (this.granted >= this.total && this.timer === null && this.startedAt > 0) return Promise.resolve(false);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiting.splice(0)) w(false);
  }
}

/** `$TMUX_PANE`'s shell pid: where Claude would run, and what its session file is named after. */
async function panePid(agent: AgentHandle, tab: TabView): Promise<number> {
  return Number((await tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{pane_pid}')).trim());
}

/**
 * The files a running claude leaves for the agent to find: its transcript (the captured one,
 * made this session's, with times before now so nothing in it is newer than the hooks) and
 * `~/.claude/sessions/<pid>.json` naming the pane's shell, so the agent's process check finds
 * a claude in the tab as it would for a real one.
 */
function writeClaudeFiles(home: string, cwd: string, sessionId: string, pid: number): string {
  const slug = cwd.replace(/[^A-Za-z0-9]/g, '-');
  const dir = join(home, '.claude', 'projects', slug);
  mkdirSync(dir, { recursive: true });
  const transcript = join(dir, `${sessionId}.jsonl`);
  const lines = readFileSync(join(FIXTURES, 'transcript.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
  const capturedId = (JSON.parse(readFileSync(join(FIXTURES, 'hooks.jsonl'), 'utf8').split('\n')[0] as string) as { session_id: string }).session_id;
  const hourAgo = Date.now() - 3_600_000;
  const out = lines.map((line, i) => {
    const entry = JSON.parse(line.replaceAll(capturedId, sessionId).replaceAll('/home/user/proj', cwd).replaceAll('-home-user-proj', slug)) as Record<string, unknown>;
    if (typeof entry.timestamp === 'string') entry.timestamp = new Date(hourAgo + i * 10).toISOString();
    return JSON.stringify(entry);
  });
  writeFileSync(transcript, `${out.join('\n')}\n`);
  const sessions = join(home, '.claude', 'sessions');
  mkdirSync(sessions, { recursive: true });
  writeFileSync(
    join(sessions, `${pid}.json`),
    JSON.stringify({ pid, sessionId, cwd, startedAt: Date.now(), version: '2.1.332', kind: 'interactive', status: 'busy' }),
  );
  return transcript;
}

/**
 * Runs the load against `target` and returns its figures and checks. `progress` gets a line
 * about every 10 s.
 */
export async function hookLoad(target: LoadAgent, partial: Partial<HookLoadOptions> = {}, progress: (line: string) => void = () => undefined): Promise<HookLoadResult> {
  const options: HookLoadOptions = { ...HOOK_LOAD_DEFAULTS, ...partial };
  const { agent, project } = target;
  const problems: string[] = [];
  const script = join(agent.dataDir, 'hooks', 'hook.sh');
  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const captured = capturedSession();

  // A device per client, as phones and browsers pair: the first by the printed link, the
  // rest by codes the first asks for.
  const owner = await claim(agent, 'load device 1');
  const sessions: Session[] = [owner];
  while (sessions.length < options.clients) sessions.push(await pairAnother(agent, owner, `load device ${sessions.length + 1}`));
  const workspace = await api<WorkspaceView>(owner, 'POST', '/api/workspaces', { dir: project });
  if (workspace.status !== 201) throw new Error(`could not make the workspace: ${workspace.status} ${JSON.stringify(workspace.body)}`);

  progress(`  ${options.tabs} shell tabs and ${options.claudeTabs} Claude tabs`);
  const tabs: ReplayTab[] = [];
  for (let i = 0; i < options.tabs; i++) {
    const tab = await createTab(owner, workspace.body.id);
    const sessionId = randomUUID();
    const transcript = writeClaudeFiles(agent.home, project, sessionId, await panePid(agent, tab));
    tabs.push({
      tab,
      env: await paneEnv(agent, tab),
      viaScript: i < options.scriptTabs,
      events: replay(captured, { sessionId, transcript, cwd: project, name: `t${i}` }),
      base: 0,
      sentNames: [],
      implied: { state: 'idle', claudeRunning: false },
      sentAt: [],
      sentScript: [],
      settledUpTo: 0,
    });
  }

  const claudeIds = new Set<string>();
  const claudeTabs: TabView[] = [];
  const clients: LoadClient[] = [];
  for (const s of sessions) clients.push(new LoadClient(s, claudeIds));
  await Promise.all(clients.map((c) => c.opened));
  await eventually(() => clients.every((c) => c.syncs > 0), 10_000, 'every client to get its first snapshot');
  const first = clients[0] as LoadClient;
  for (const t of tabs) t.base = first.latest.get(t.tab.id)?.seq ?? 0;

  for (let i = 0; i < options.claudeTabs; i++) {
    const res = await api<TabView>(owner, 'POST', '/api/tabs', { workspaceId: workspace.body.id, kind: 'claude', claude: { permissionMode: 'default' } });
    if (res.status !== 201) throw new Error(`could not create a Claude tab: ${res.status} ${JSON.stringify(res.body)}`);
    claudeIds.add(res.body.id);
    claudeTabs.push(res.body);
  }
  const panes = claudeTabs.map((t) => new ClaudeTabPane(agent, t));
  await eventually(() => claudeTabs.every((t) => first.latest.get(t.id)?.claudeRunning), 120_000, 'every Claude tab to start');
  await Promise.all(panes.map((p) => p.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 60_000)));

  // node:http with keep-alive, as Claude's own HTTP hooks keep their connection.
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 * options.tabs });
  let failedPosts = 0;
  /** How deliveries failed (a few, to say why), by message. */
  const failures = new Map<string, number>();
  const failed = (what: string) => failures.set(what, (failures.get(what) ?? 0) + 1);
  /** Each tab's latest request, to say what became of one that was never answered. */
  const lastRequest = new Map<ReplayTab, ClientRequest>();
  /** The HTTP status of the answer; -1 when the request failed (and why goes to `failures`). */
  const post = (t: ReplayTab, payload: Payload): Promise<number> =>
    new Promise((resolve) => {
      const req = request(
        new URL(`/hooks/${payload.hook_event_name}`, agent.url),
        {
          method: 'POST',
          agent: keepAlive,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'axios/1.15.2',
            'x-pocketmux-token': token,
            'x-pocketmux-pane': t.env.TMUX_PANE,
            'x-pocketmux-tmux': t.env.TMUX,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? -1));
          res.on('error', (err) => {
            failed(`${payload.hook_event_name} answer: ${err.message}`);
            resolve(-1);
          });
        },
      );
      lastRequest.set(t, req);
      req.on('error', (err) => {
        failed(`${payload.hook_event_name} post: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
        resolve(-1);
      });
      req.end(JSON.stringify(payload));
    });
  // As Claude starts a command hook: sh running the script, the payload and a newline on
  // stdin, the pane's TMUX and TMUX_PANE in the environment.
  const running = new Set<ChildProcess>();
  const runScript = (t: ReplayTab, payload: Payload): Promise<number> =>
    new Promise((resolve) => {
      const child = spawn('/bin/sh', [script, payload.hook_event_name], {
        env: { PATH: process.env.PATH, TMUX: t.env.TMUX, TMUX_PANE: t.env.TMUX_PANE },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      running.add(child);
      child.on('error', () => {
        running.delete(child);
        resolve(-1);
      });
      child.on('exit', (code) => {
        running.delete(child);
        resolve(code ?? -1);
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(`${JSON.stringify(payload)}\n`);
    });

  const total = Math.round(options.rate * options.seconds);
  const pacer = new Pacer(options.rate, total);
  let sent = 0;
  let sentScript = 0;
  let lastAnswerAt = 0;
  const answerTimes: number[] = [];
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  /** Every PermissionRequest hook sent, with how it ended once it has. */
  const held: { tab: ReplayTab; ordinal: number; ended: Promise<number>; code: number | null }[] = [];

  /** A tab's sender: its next event only once the agent has its previous one, as Claude waits on each hook. */
  const sender = async (t: ReplayTab, index: number): Promise<void> => {
    for (;;) {
      if (!(await pacer.take())) return;
      const payload = t.events.next().value as Payload;
      const viaScript = t.viaScript || payload.hook_event_name === 'SessionStart';
      const seq = t.base + t.sentNames.length + 1;
      t.sentNames.push(payload.hook_event_name);
      t.implied = impliedStep(t.implied, payload);
      if (SETTLING_EVENTS.has(payload.hook_event_name)) t.settledUpTo = t.sentNames.length;
      t.sentScript.push(viaScript);
      sent++;
      if (viaScript) sentScript++;
      t.sentAt.push(performance.now());
      const answered = viaScript ? runScript(t, payload) : post(t, payload);
      if (payload.hook_event_name === 'PermissionRequest') {
        // Claude shows its dialog while this hook waits for an answer, and goes on when the
        // person answers in the terminal: the next event follows once the agent has this
        // one, and the hook is answered when the agent learns of the answer from that event.
        const entry = { tab: t, ordinal: t.sentNames.length, ended: answered, code: null as number | null };
        held.push(entry);
        void answered.then((code) => {
          entry.code = code;
        });
        // An answer before the agent numbered it is a failed delivery (or an approval refused):
        // the tab goes on, as Claude would.
        const outcome = await firstOf([first.heardSeq(t.tab.id, seq).then(() => 'heard'), answered.then(() => 'answered')], options.deliveryTimeoutMs);
        if (outcome === 'timeout') {
          const req = viaScript ? undefined : lastRequest.get(t);
          problems.push(
            `tab ${index}: its PermissionRequest (seq ${seq}, sent ${(((t.sentAt.at(-1) as number) - loadStart) / 1000).toFixed(1)} s into the load) was neither numbered nor answered in ${options.deliveryTimeoutMs} ms${
              req ? ` (request written: ${req.writableFinished}, reused socket: ${req.reusedSocket}, local port ${req.socket?.localPort}, socket destroyed: ${req.socket?.destroyed})` : ''
            }`,
          );
        }
      } else {
        const code = await answered;
        if (code !== 0 && code !== 204) failedPosts++;
        if (!viaScript) answerTimes.push(performance.now() - (t.sentAt.at(-1) as number));
      }
      lastAnswerAt = performance.now();
    }
  };

  const rss = { before: rssKiB(agent.pid), peak: 0, after: 0 };
  const cpuBefore = cpuTicks(agent.pid);
  const driverBefore = process.cpuUsage();
  progress(`  load: ${total.toLocaleString('en')} events at ${options.rate}/s over ${options.tabs} tabs, ${options.clients} clients`);
  loopDelay.enable();
  pacer.start();
  const loadStart = pacer.startedAt;
  const sampler = setInterval(() => {
    rss.peak = Math.max(rss.peak, rssKiB(agent.pid));
  }, 1000);
  let nextReport = 10;
  const reporter = setInterval(() => {
    const s = (performance.now() - loadStart) / 1000;
    if (s < nextReport - 0.5) return;
    nextReport += 10;
    progress(
      `  load: ${s.toFixed(0)} s, ${sent.toLocaleString('en')} events sent (${(sent / s).toFixed(0)}/s), ${sentScript} via hook.sh, agent RSS ${(rssKiB(agent.pid) / 1024).toFixed(0)} MiB`,
    );
  }, 1000);

  // The real Claude tabs take their turns while the load runs: a prompt typed into the pane,
  // the stand-in API's answer, and the status through busy to ready-for-review.
  const claudeWork = claudeTabs.map(async (tab, i) => {
    const pane = panes[i] as ClaudeTabPane;
    const turnMs: number[] = [];
    await sleep(2_000 + i * 1_500);
    for (let turn = 0; turn < options.claudeTurns; turn++) {
      const before = first.latest.get(tab.id)?.seq ?? 0;
      await pane.keys('-l', `load turn ${turn + 1}`);
      await pane.waitScreen('the prompt typed', (s) => s.includes(`❯ load turn ${turn + 1}`), 60_000);
      const typed = performance.now();
      await pane.keys('Enter');
      await eventually(
        () => {
          const s = first.latest.get(tab.id);
          return s && s.seq > before && s.state === 'ready-for-review';
        },
        options.deliveryTimeoutMs,
        `turn ${turn + 1} of Claude tab ${i + 1} to end`,
      );
      turnMs.push(performance.now() - typed);
      await pane.waitScreen('the idle prompt', (s) => /^❯ *$/m.test(s), 60_000);
      await sleep(3_000);
    }
    return turnMs;
  });
  const claudeDone = Promise.allSettled(claudeWork);

  await Promise.all(tabs.map((t, i) => sender(t, i)));
  pacer.stop();
  const loadEnd = lastAnswerAt || performance.now();
  const cpuAfter = cpuTicks(agent.pid);
  const driver = process.cpuUsage(driverBefore);
  loopDelay.disable();
  clearInterval(reporter);
  const elapsedSeconds = (loadEnd - loadStart) / 1000;
  const sentHttp = sent - sentScript;
  progress(`  sent ${sent.toLocaleString('en')} in ${elapsedSeconds.toFixed(1)} s (${(sent / elapsedSeconds).toFixed(0)}/s); waiting for every client to hear every event`);

  // Every client must hear every event; a slow machine gets time, not a pass.
  const deliveryDeadline = Date.now() + options.deliveryTimeoutMs;
  const allHeard = () => clients.every((c) => tabs.every((t) => c.highest(t.tab.id) >= t.base + t.sentNames.length));
  await eventually(() => allHeard() || clients.some((c) => c.closed !== null), options.deliveryTimeoutMs, 'every client to hear every event').catch(() => undefined);

  const claudeResults = await claudeDone;
  // Every PermissionRequest hook followed by an event that shows Claude moved on must have been
  // answered: that event told the agent the dialog was answered in the terminal. One followed
  // only by its Notification still waits, as it would in Claude.
  const answerable = held.filter((h) => h.ordinal < h.tab.settledUpTo);
  await firstOf([Promise.all(answerable.map((h) => h.ended)).then(() => 'ended')], Math.max(5_000, deliveryDeadline - Date.now()));
  const heldExpected = answerable.length;
  const heldAnswered = answerable.filter((h) => h.code === 0 || h.code === 200).length;
  failedPosts += held.filter((h) => h.code !== null && h.code !== 0 && h.code !== 200).length;
  clearInterval(sampler);
  rss.after = rssKiB(agent.pid);
  rss.peak = Math.max(rss.peak, rss.after);

  // What each client heard, tab by tab, against what was sent.
  const tallies: ClientTally[] = [];
  const latencies: number[] = [];
  const latHttp: number[] = [];
  const latScript: number[] = [];
  for (const [ci, c] of clients.entries()) {
    const tally: ClientTally = { lost: 0, reordered: 0, duplicated: 0, resyncs: Math.max(0, c.syncs - 1), updatesBackwards: c.updatesBackwards };
    for (const t of tabs) {
      const heard = c.heard.get(t.tab.id) ?? { seqs: [], at: [], names: [] };
      const seen = new Set<number>();
      let highest = t.base;
      for (const [k, seq] of heard.seqs.entries()) {
        if (seq < highest) tally.reordered++;
        highest = Math.max(highest, seq);
        if (seen.has(seq)) {
          tally.duplicated++;
          continue;
        }
        seen.add(seq);
        const n = seq - t.base - 1;
        if (n >= 0 && n < t.sentAt.length) {
          const ms = (heard.at[k] as number) - (t.sentAt[n] as number);
          latencies.push(ms);
          (t.sentScript[n] ? latScript : latHttp).push(ms);
        }
      }
      for (let n = 1; n <= t.sentNames.length; n++) if (!seen.has(t.base + n)) tally.lost++;
    }
    // The real Claude tabs: their own numbers, every one heard once and in order.
    for (const tab of claudeTabs) {
      const seqs = c.heard.get(tab.id)?.seqs ?? [];
      for (let k = 0; k < seqs.length; k++) {
        if (seqs[k] !== k + 1) {
          tally.lost++;
          problems.push(`client ${ci + 1}: Claude tab ${tab.id} heard ${seqs.join(',')} (every number from 1, once, in order, expected)`);
          break;
        }
      }
    }
    if (c.closed) problems.push(`client ${ci + 1} was closed: ${c.closed.code} ${c.closed.reason}`);
    tallies.push(tally);
  }
  // Did the agent number the events in the order each tab sent them? (Client 0's names.)
  let intakeOutOfOrder = 0;
  for (const t of tabs) {
    const heard = first.heard.get(t.tab.id);
    if (!heard) continue;
    for (const [k, seq] of heard.seqs.entries()) {
      const n = seq - t.base - 1;
      if (n >= 0 && n < t.sentNames.length && heard.names[k] !== t.sentNames[n]) intakeOutOfOrder++;
    }
  }

  // Final statuses: over REST and on every client, what each tab's events imply.
  const finalMismatches: string[] = [];
  const rest = await api<{ tabs: Record<string, TabStatus> }>(owner, 'GET', '/api/status');
  for (const [i, t] of tabs.entries()) {
    const want = t.implied;
    const got = rest.body.tabs[t.tab.id];
    if (!got || got.state !== want.state || got.claudeRunning !== want.claudeRunning || got.seq !== t.base + t.sentNames.length) {
      finalMismatches.push(
        `tab ${i} (last sent ${t.sentNames.at(-1)}): ${want.state}${want.claudeRunning ? '' : ' (claude not running)'} at seq ${t.base + t.sentNames.length} expected, the agent says ${got ? `${got.state}${got.claudeRunning ? '' : ' (claude not running)'} at seq ${got.seq}` : 'nothing'}`,
      );
    }
    for (const [ci, c] of clients.entries()) {
      const seen = c.latest.get(t.tab.id);
      if (seen?.state !== got?.state || seen?.seq !== got?.seq) finalMismatches.push(`tab ${i}: client ${ci + 1} shows ${seen?.state} at seq ${seen?.seq}, the agent ${got?.state} at seq ${got?.seq}`);
    }
  }

  // The real Claude tabs: each turn through busy to ready-for-review, on every client.
  const claude: ClaudeTabOutcome[] = claudeTabs.map((tab, i) => {
    const result = claudeResults[i] as PromiseSettledResult<number[]>;
    const expected: ClaudeState[] = ['idle'];
    for (let k = 0; k < options.claudeTurns; k++) expected.push('busy', 'ready-for-review');
    let ok = result.status === 'fulfilled';
    if (result.status === 'rejected') problems.push(`Claude tab ${i + 1}: ${(result.reason as Error).message}`);
    for (const [ci, c] of clients.entries()) {
      const states = c.states.get(tab.id) ?? [];
      if (states.join(',') !== expected.join(',')) {
        ok = false;
        problems.push(`Claude tab ${i + 1}: client ${ci + 1} saw ${states.join(' → ')}, expected ${expected.join(' → ')}`);
      }
    }
    const final = rest.body.tabs[tab.id];
    if (final?.state !== 'ready-for-review' || !final.claudeRunning) {
      ok = false;
      problems.push(`Claude tab ${i + 1} ended ${final?.state ?? 'with no status'}, expected ready-for-review with claude running`);
    }
    return { tabId: tab.id, turns: options.claudeTurns, states: first.states.get(tab.id) ?? [], turnMs: result.status === 'fulfilled' ? result.value : [], ok };
  });

  const alive = await api<{ tabs: TabView[] }>(owner, 'GET', '/api/tabs').catch(() => ({ status: 0, body: undefined }));
  const agentAlive = alive.status === 200 && agent.process.exitCode === null && agent.process.signalCode === null;

  for (const c of clients) c.ws.close();
  // Whatever is still held (a tab's last event a PermissionRequest) is let go, as Claude
  // lets go of a dialog answered No.
  keepAlive.destroy();
  for (const child of running) child.kill();

  const sum = (pick: (t: ClientTally) => number) => tallies.reduce((a, t) => a + pick(t), 0);
  const lost = sum((t) => t.lost);
  const reordered = sum((t) => t.reordered);
  const duplicated = sum((t) => t.duplicated);
  if (lost > 0) problems.push(`${lost} events lost (per client: ${tallies.map((t) => t.lost).join(', ')})`);
  if (reordered > 0) problems.push(`${reordered} events reordered (per client: ${tallies.map((t) => t.reordered).join(', ')})`);
  if (duplicated > 0) problems.push(`${duplicated} events duplicated (per client: ${tallies.map((t) => t.duplicated).join(', ')})`);
  if (sum((t) => t.resyncs) > 0) problems.push(`clients resynced after falling behind: ${tallies.map((t) => t.resyncs).join(', ')}`);
  if (sum((t) => t.updatesBackwards) > 0) problems.push(`status:update went back in sequence: ${tallies.map((t) => t.updatesBackwards).join(', ')}`);
  if (intakeOutOfOrder > 0) problems.push(`${intakeOutOfOrder} events numbered by the agent out of the order their tab sent them`);
  if (failedPosts > 0) problems.push(`${failedPosts} hook deliveries failed: ${[...failures].map(([what, n]) => `${what} ×${n}`).join('; ') || 'answered with an error status'}`);
  if (heldAnswered < heldExpected) problems.push(`${heldExpected - heldAnswered} of ${heldExpected} PermissionRequest hooks were never answered after their tab moved on`);
  if (finalMismatches.length > 0) problems.push(`final statuses wrong:\n    ${finalMismatches.slice(0, 20).join('\n    ')}`);
  if (!agentAlive) problems.push(`the agent no longer answers GET /api/tabs (status ${alive.status})`);
  if (sentScript === 0) problems.push('no event went through hook.sh');
  if (problems.length > 0) {
    const said = agent
      .stderr()
      .split('\n')
      .filter((l) => / (warn|error) /.test(l));
    if (said.length > 0) problems.push(`the agent warned:\n    ${said.slice(-20).join('\n    ')}`);
  }

  const all = sortedOf(latencies);
  const http = sortedOf(latHttp);
  const viaScript = sortedOf(latScript);
  const answered = sortedOf(answerTimes);
  return {
    options,
    sent,
    sentHttp,
    sentScript,
    elapsedSeconds,
    rate: sent / elapsedSeconds,
    latency: { p50: quantileOfSorted(all, 0.5), p99: quantileOfSorted(all, 0.99), max: all.at(-1) ?? Number.NaN, samples: all.length },
    latencyHttp: { p50: quantileOfSorted(http, 0.5), p99: quantileOfSorted(http, 0.99) },
    latencyScript: { p50: quantileOfSorted(viaScript, 0.5), p99: quantileOfSorted(viaScript, 0.99) },
    answerHttp: { p50: quantileOfSorted(answered, 0.5), p99: quantileOfSorted(answered, 0.99) },
    driverLoopDelay: { p50: Math.max(0, loopDelay.percentile(50) / 1e6 - LOOP_RESOLUTION_MS), p99: Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS) },
    clients: tallies,
    lost,
    reordered,
    duplicated,
    intakeOutOfOrder,
    heldAnswered,
    heldExpected,
    failedPosts,
    rssKiB: rss,
    cpuPercent: ((cpuAfter - cpuBefore) / TICKS_PER_SECOND / elapsedSeconds) * 100,
    driverCpuPercent: ((driver.user + driver.system) / 1e6 / elapsedSeconds) * 100,
    claude,
    finalMismatches,
    agentAlive,
    problems,
  };
}

/** The figures as lines for a log. */
export function describeHookLoad(r: HookLoadResult): string {
  const f1 = (x: number) => x.toFixed(1);
  const f2 = (x: number) => x.toFixed(2);
  const mib = (k: number) => (k / 1024).toFixed(0);
  return [
    `hook load: ${r.sent.toLocaleString('en')} events over ${r.options.tabs} tabs in ${f1(r.elapsedSeconds)} s: ${r.rate.toFixed(0)}/s reached (${r.options.rate}/s asked)`,
    `  ${r.sentHttp.toLocaleString('en')} as Claude's HTTP hook, ${r.sentScript.toLocaleString('en')} through hook.sh (sh + curl)`,
    `  ${r.options.clients} clients: ${r.lost} lost, ${r.reordered} reordered, ${r.duplicated} duplicated; ${r.intakeOutOfOrder} out of order at the intake`,
    `  status latency (post → status:hook-event, ${r.latency.samples.toLocaleString('en')} over all clients): p50 ${f2(r.latency.p50)} ms, p99 ${f2(r.latency.p99)} ms, max ${f1(r.latency.max)} ms`,
    `    HTTP hooks p50 / p99 ${f2(r.latencyHttp.p50)} / ${f2(r.latencyHttp.p99)} ms; hook.sh ${f2(r.latencyScript.p50)} / ${f2(r.latencyScript.p99)} ms`,
    `    HTTP hook answered (what Claude waits on) p50 / p99 ${f2(r.answerHttp.p50)} / ${f2(r.answerHttp.p99)} ms; this process's event-loop delay p50 / p99 ${f1(r.driverLoopDelay.p50)} / ${f1(r.driverLoopDelay.p99)} ms`,
    `  PermissionRequest hooks answered once their tab moved on: ${r.heldAnswered} of ${r.heldExpected}`,
    `  agent RSS ${mib(r.rssKiB.before)} MiB before, ${mib(r.rssKiB.peak)} MiB peak, ${mib(r.rssKiB.after)} MiB after; agent CPU ${r.cpuPercent.toFixed(0)}% of one core during the load (this process: ${r.driverCpuPercent.toFixed(0)}%)`,
    ...r.claude.map((c, i) => `  Claude tab ${i + 1}: ${c.states.join(' → ')}; turns ${c.turnMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}${c.ok ? '' : ' (WRONG)'}`),
    `  final statuses: ${r.finalMismatches.length === 0 ? 'every tab as its last events imply' : `${r.finalMismatches.length} wrong`}; agent ${r.agentAlive ? 'answers GET /api/tabs' : 'DOES NOT ANSWER'}`,
  ].join('\n');
}
