/**
 * A dialog Claude draws with no hook behind it (the startup offer of auto mode) until its card
 * reaches a phone, beside a permission dialog, whose PermissionRequest hook reaches the same
 * phone at once. The agent finds the first kind by reading the screens of the tabs Claude runs
 * in (agent/approvals/pane-dialogs.ts), so that path costs a poll and a second look by design;
 * this part shows how much, and what the polling costs the agent while Claude tabs sit idle.
 *
 * A tab's pane runs a stand-in named `claude` (a copy of bash, as the dialog cards' browser
 * test runs) that draws the captured screens of Claude Code 2.1.332: on a line from the bench
 * on a FIFO it draws the offer and notes the time it wrote it; it moves the cursor on ↓ and
 * draws Claude's prompt on Enter, as "No, keep manual mode" does. The tab reports as Claude
 * through the agent's installed hook script. Like the CLI's part, this runs several times,
 * each on a fresh agent, and the section shows every run.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, closeSync, constants, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, realpathSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import type { Approval } from '../../protocol/approvals.js';
import type { StatusServerMessage } from '../../protocol/status.js';
import { PANE_DIALOG_TIMINGS } from '../../agent/approvals/pane-dialogs.js';
import { type AgentHandle, REPO_ROOT, cleanupAgents, startAgent, tmux } from '../support/agent.js';
import { api, claim, deviceSocket, type Session } from '../support/client.js';
import { runHookScript } from '../support/hook-script.js';
import { capturedHook, paneEnv } from '../support/status.js';
import { quantile } from '../support/stats.js';

export const DIALOG_BENCH = {
  /** Separate runs, each on a fresh agent. */
  RUNS: 3,
  /** Timed rounds per run: a dialog and a permission request each. */
  ROUNDS: 60,
  /** Untimed rounds first. */
  WARMUP: 3,
  /** Before each draw, a random wait up to this long, so draws land at every moment of the poll. */
  JITTER_MS: PANE_DIALOG_TIMINGS.pollMs,
  /** The CPU part: this many idle Claude tabs, each window this long. */
  IDLE_TABS: 10,
  CPU_SECONDS: 60,
} as const;

export const DIALOG_GOALS_MS = { p50: 1000, p99: 1500 } as const;

export interface DialogRun {
  rounds: number;
  seconds: number;
  /** The stand-in's write of the dialog → `approval-opened` on the phone's socket. */
  dialogP50: number;
  dialogP99: number;
  dialogMax: number;
  /** The bench's signal → the stand-in's write: what the draw itself took. */
  drawP50: number;
  drawP99: number;
  /** The hook script started with a PermissionRequest → `approval-opened` on the same socket. */
  permissionP50: number;
  permissionP99: number;
  /** The card answered ("No, keep manual mode": ↓ then Enter) → the decision's response. */
  answerP50: number;
}

/** CPU seconds used over one window, by the agent, the tmux clients it waited for, and the tmux server. */
export interface CpuWindow {
  agent: number;
  children: number;
  tmuxServer: number;
}

export interface DialogCpu {
  tabs: number;
  seconds: number;
  /** The same number of tabs, shells with no Claude. */
  noClaude: CpuWindow;
  /** The first minute after each Claude tab's SessionStart: due a look every poll. */
  recent: CpuWindow;
  /** The minute after: due a look every `quietLookEvery`th poll. */
  quiet: CpuWindow;
}

export interface DialogBenchResult {
  runs: DialogRun[];
  cpu: DialogCpu;
  timings: { pollMs: number; stableMs: number; quietLookEvery: number; blindLookEvery: number; recentMs: number };
}

const DIALOGS = join(REPO_ROOT, 'tests', 'fixtures', 'claude-code-2.1.332', 'dialogs');
const OFFER = join(DIALOGS, 'pane-startup-auto-mode-offer.txt');
const OFFER_DOWN = join(DIALOGS, 'pane-startup-auto-mode-offer-down.txt');
const PROMPT = join(DIALOGS, 'pane-startup-after-keep-manual.txt');
/** "No, keep manual mode": the answer whose next screen is the captured prompt. */
const KEEP_MANUAL = '2';

/**
 * Run by bash named claude: marks file, signal FIFO, offer, offer with the cursor down, prompt.
 * Keys left from an answer are dropped before each draw. EPOCHREALTIME is bash's own clock
 * read, no process started: the time noted is just after the screen was written to the pane.
 */
const STAND_IN = `
marks="$1"; signal="$2"; offer="$3"; down="$4"; prompt="$5"
draw() { printf '\\033[H\\033[2J'; cat "$1"; }
exec 3<"$signal"
draw "$prompt"
while read -r _ <&3; do
  while read -rsn1 -t 0.01 _; do :; done
  draw "$offer"; echo "dialog $EPOCHREALTIME" >> "$marks"
  while IFS= read -rsn1 key; do
    if [ "$key" = $'\\033' ]; then read -rsn2 -t 0.05 rest; key="$key$rest"; fi
    case "$key" in
      $'\\033[B'|$'\\033OB') draw "$down" ;;
      $'\\033[A'|$'\\033OA') draw "$offer" ;;
      ''|$'\\033') draw "$prompt"; echo "prompt $EPOCHREALTIME" >> "$marks"; break ;;
    esac
  done
done
`;

/** Claude's prompt drawn, and every key taken and dropped: an idle Claude tab. */
const IDLE_STAND_IN = `draw() { printf '\\033[H\\033[2J'; cat "$1"; }
draw "$1"
while read -rs _; do :; done
`;

/** Every message of the phone's status socket, with the wall-clock time it arrived. */
class Phone {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  private waiters: { test: (m: StatusServerMessage) => boolean; resolve: (r: { msg: StatusServerMessage; at: number }) => void }[] = [];

  constructor(session: Session) {
    this.ws = deviceSocket(session, '/api/status');
    this.opened = new Promise((r) => this.ws.once('open', () => r()));
    this.ws.on('message', (data) => {
      const at = wallNow();
      const msg = JSON.parse(String(data)) as StatusServerMessage;
      const hit = this.waiters.filter((w) => w.test(msg));
      this.waiters = this.waiters.filter((w) => !hit.includes(w));
      for (const w of hit) w.resolve({ msg, at });
    });
  }

  /** The next message `test` picks; fails after `timeoutMs`, naming `what`. */
  next(test: (m: StatusServerMessage) => boolean, what: string, timeoutMs = 15_000): Promise<{ msg: StatusServerMessage; at: number }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiters.push({
        test,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      });
    });
  }

  opened$(tabId: string, kind: Approval['kind']): (m: StatusServerMessage) => boolean {
    return (m) => m.type === 'approval-opened' && m.approval.tabId === tabId && m.approval.kind === kind;
  }
}

/** Milliseconds since the epoch, sub-millisecond: comparable with bash's EPOCHREALTIME. */
function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs / 1000} s`);
    await sleep(5);
  }
}

/** The times the stand-in noted, of one kind ("dialog" or "prompt"), in ms since the epoch. */
function marks(file: string, kind: string): number[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`${kind} `))
    .map((l) => Number(l.slice(kind.length + 1)) * 1000);
}

interface ClaudeTab {
  tab: TabView;
  env: { TMUX_PANE: string; TMUX: string };
}

function shellTab(session: Session, workspace: WorkspaceView): Promise<TabView> {
  return api<TabView>(session, 'POST', '/api/tabs', { workspaceId: workspace.id }).then((r) => r.body);
}

/**
 * The tab's pane made to run `script` with `args` under a copy of bash named claude (the agent
 * takes a process by that name for Claude), 100 columns wide as the captures are, and reported
 * as Claude by a SessionStart through the agent's hook script.
 */
async function startClaude(agent: AgentHandle, workspace: WorkspaceView, tab: TabView, script: string, args: string[]): Promise<ClaudeTab> {
  const target = `=pm_${tab.workspaceId}_${tab.id}:`;
  await tmux(agent.tmuxSocket, 'resize-window', '-t', target, '-x', '100', '-y', '35');
  const claude = join(agent.root, 'dialog-claude', 'claude');
  const command = [claude, script, ...args].map((a) => `'${a}'`).join(' ');
  await tmux(agent.tmuxSocket, 'send-keys', '-t', target, '-l', `exec ${command}`);
  await tmux(agent.tmuxSocket, 'send-keys', '-t', target, 'Enter');
  await until(async () => ((await tmux(agent.tmuxSocket, 'capture-pane', '-p', '-t', target)).includes('? for shortcuts') ? true : undefined), 'Claude prompt drawn');
  const env = await paneEnv(agent, tab);
  const run = await runHookScript(agent.dataDir, 'SessionStart', { ...capturedHook('SessionStart'), session_id: randomUUID(), cwd: workspace.dir }, env);
  if (run.code !== 0) throw new Error(`SessionStart through hook.sh failed: ${run.code} ${run.stderr}`);
  return { tab, env };
}

async function benchAgent(): Promise<{ agent: AgentHandle; session: Session; workspace: WorkspaceView; bin: string }> {
  const agent = await startAgent();
  const session = await claim(agent, 'bench phone');
  const dir = join(agent.home, 'code', 'proj');
  mkdirSync(dir, { recursive: true });
  const workspace = (await api<WorkspaceView>(session, 'POST', '/api/workspaces', { dir: realpathSync(dir), name: 'proj' })).body;
  const bin = join(agent.root, 'dialog-claude');
  mkdirSync(bin, { recursive: true });
  copyFileSync('/bin/bash', join(bin, 'claude'));
  chmodSync(join(bin, 'claude'), 0o755);
  writeFileSync(join(bin, 'screens.sh'), STAND_IN);
  writeFileSync(join(bin, 'idle.sh'), IDLE_STAND_IN);
  return { agent, session, workspace, bin };
}

/** One run on a fresh agent: rounds of a dialog drawn and answered, each beside a permission request. */
async function dialogRun(run: number, progress: (line: string) => void): Promise<DialogRun> {
  const { agent, session, workspace, bin } = await benchAgent();
  const phone = new Phone(session);
  try {
    await phone.opened;
    const markFile = join(bin, 'marks');
    const fifo = join(bin, 'draw');
    execFileSync('mkfifo', [fifo]);
    // Read and write: opening a FIFO so never blocks, and the stand-in's open finds a writer.
    const signal = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      const dialogTab = await startClaude(agent, workspace, await shellTab(session, workspace), join(bin, 'screens.sh'), [markFile, fifo, OFFER, OFFER_DOWN, PROMPT]);
      // The permission requests come from a Claude tab of their own: the dialog tab's would make
      // it wait (needs-input) and change how the poll treats it.
      const permissionTab = await startClaude(agent, workspace, await shellTab(session, workspace), join(bin, 'idle.sh'), [PROMPT]);
      const permission = capturedHook('PermissionRequest');

      const dialog: number[] = [];
      const draw: number[] = [];
      const permissionTimes: number[] = [];
      const answer: number[] = [];
      const started = performance.now();
      for (let i = 0; i < DIALOG_BENCH.ROUNDS + DIALOG_BENCH.WARMUP; i++) {
        // The peer: the hook script, as Claude starts it, until the card is on the phone.
        const permissionOpened = phone.next(phone.opened$(permissionTab.tab.id, 'permission'), 'permission card');
        const p0 = wallNow();
        const script = runHookScript(agent.dataDir, 'PermissionRequest', permission, permissionTab.env);
        const { msg: permissionMsg, at: p1 } = await permissionOpened;
        if (permissionMsg.type !== 'approval-opened') throw new Error('expected approval-opened');
        const permissionId = permissionMsg.approval.id;
        const denied = await api(session, 'POST', `/api/approvals/${permissionId}`, { decision: 'deny' });
        if (denied.status !== 200) throw new Error(`deny refused: ${denied.status}`);
        await script;

        // The dialog: drawn at a random moment of the poll, until its card is on the phone.
        await sleep(Math.random() * DIALOG_BENCH.JITTER_MS);
        const dialogOpened = phone.next(phone.opened$(dialogTab.tab.id, 'dialog'), 'dialog card');
        const d0 = wallNow();
        writeSync(signal, 'draw\n');
        const { msg: dialogMsg, at: d2 } = await dialogOpened;
        if (dialogMsg.type !== 'approval-opened') throw new Error('expected approval-opened');
        const d1 = await until(() => marks(markFile, 'dialog')[i], 'dialog drawn');

        // Answered from the phone; the next round waits for the card settled and the prompt back.
        const resolved = phone.next((m) => m.type === 'approval-resolved' && m.resolution.id === dialogMsg.approval.id, 'dialog settled');
        const a0 = wallNow();
        const answered = await api(session, 'POST', `/api/approvals/${dialogMsg.approval.id}`, { decision: 'answer', option: KEEP_MANUAL });
        const a1 = wallNow();
        if (answered.status !== 200) throw new Error(`answer refused: ${answered.status} ${JSON.stringify(answered.body)}`);
        await resolved;
        await until(() => marks(markFile, 'prompt')[i], 'prompt redrawn');

        if (i >= DIALOG_BENCH.WARMUP) {
          dialog.push(d2 - d1);
          draw.push(d1 - d0);
          permissionTimes.push(p1 - p0);
          answer.push(a1 - a0);
        }
        if ((i + 1) % 10 === 0) progress(`  run ${run}: ${i + 1}/${DIALOG_BENCH.ROUNDS + DIALOG_BENCH.WARMUP} rounds, dialog → card p50 so far ${quantile(dialog, 0.5).toFixed(0)} ms`);
      }
      return {
        rounds: dialog.length,
        seconds: (performance.now() - started) / 1000,
        dialogP50: quantile(dialog, 0.5),
        dialogP99: quantile(dialog, 0.99),
        dialogMax: Math.max(...dialog),
        drawP50: quantile(draw, 0.5),
        drawP99: quantile(draw, 0.99),
        permissionP50: quantile(permissionTimes, 0.5),
        permissionP99: quantile(permissionTimes, 0.99),
        answerP50: quantile(answer, 0.5),
      };
    } finally {
      closeSync(signal);
    }
  } finally {
    phone.ws.close();
    await agent.stop();
    await cleanupAgents();
  }
}

const TICKS_PER_SECOND = 100;

/** utime + stime, and cutime + cstime (children waited for), of a process, in seconds. */
function cpuSeconds(pid: number): { own: number; children: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  const at = (i: number) => fields[i] as number;
  return { own: (at(11) + at(12)) / TICKS_PER_SECOND, children: (at(13) + at(14)) / TICKS_PER_SECOND };
}

async function cpuWindow(agentPid: number, serverPid: number, seconds: number): Promise<CpuWindow> {
  const agent0 = cpuSeconds(agentPid);
  const server0 = cpuSeconds(serverPid);
  await sleep(seconds * 1000);
  const agent1 = cpuSeconds(agentPid);
  const server1 = cpuSeconds(serverPid);
  return { agent: agent1.own - agent0.own, children: agent1.children - agent0.children, tmuxServer: server1.own - server0.own };
}

/** The agent's CPU with shell tabs, then with Claude at its prompt in each: recently started, then quiet. */
async function dialogCpu(progress: (line: string) => void): Promise<DialogCpu> {
  const { agent, session, workspace, bin } = await benchAgent();
  try {
    const tabs: TabView[] = [];
    for (let i = 0; i < DIALOG_BENCH.IDLE_TABS; i++) tabs.push(await shellTab(session, workspace));
    const serverPid = Number((await tmux(agent.tmuxSocket, 'display', '-p', '#{pid}')).trim());
    await sleep(5_000);
    progress(`  CPU: ${tabs.length} shell tabs, ${DIALOG_BENCH.CPU_SECONDS} s`);
    const noClaude = await cpuWindow(agent.pid, serverPid, DIALOG_BENCH.CPU_SECONDS);

    for (const tab of tabs) await startClaude(agent, workspace, tab, join(bin, 'idle.sh'), [PROMPT]);
    progress(`  CPU: ${DIALOG_BENCH.IDLE_TABS} idle Claude tabs, the minute after SessionStart`);
    const recent = await cpuWindow(agent.pid, serverPid, DIALOG_BENCH.CPU_SECONDS);
    progress(`  CPU: ${DIALOG_BENCH.IDLE_TABS} idle Claude tabs, the minute after that`);
    const quiet = await cpuWindow(agent.pid, serverPid, DIALOG_BENCH.CPU_SECONDS);
    return { tabs: DIALOG_BENCH.IDLE_TABS, seconds: DIALOG_BENCH.CPU_SECONDS, noClaude, recent, quiet };
  } finally {
    await agent.stop();
    await cleanupAgents();
  }
}

export async function dialogBench(progress: (line: string) => void): Promise<DialogBenchResult> {
  const runs: DialogRun[] = [];
  for (let run = 1; run <= DIALOG_BENCH.RUNS; run++) {
    progress(`dialogs: run ${run} of ${DIALOG_BENCH.RUNS}, ${DIALOG_BENCH.ROUNDS} rounds on a fresh agent`);
    runs.push(await dialogRun(run, progress));
  }
  progress(`dialogs: agent CPU, ${DIALOG_BENCH.IDLE_TABS} tabs, three windows of ${DIALOG_BENCH.CPU_SECONDS} s`);
  const cpu = await dialogCpu(progress);
  const t = PANE_DIALOG_TIMINGS;
  return { runs, cpu, timings: { pollMs: t.pollMs, stableMs: t.keyRetryMs, quietLookEvery: t.quietLookEvery, blindLookEvery: t.blindLookEvery, recentMs: t.recentMs } };
}

export const DIALOGS_HEADING = 'Dialogs on screen';

export function dialogsSection(r: DialogBenchResult, runLine: string): string {
  const f0 = (x: number) => x.toFixed(0);
  const f1 = (x: number) => x.toFixed(1);
  const f2 = (x: number) => x.toFixed(2);
  const each = (pick: (run: DialogRun) => string) => r.runs.map(pick).join(' / ');
  const spread = (pick: (run: DialogRun) => number) => {
    const xs = r.runs.map(pick);
    return `${f0(Math.min(...xs))}–${f0(Math.max(...xs))}`;
  };
  const met = (ok: (run: DialogRun) => boolean) => {
    const n = r.runs.filter(ok).length;
    return n === r.runs.length ? `met in all ${n} runs` : `**not met**: ${n} of ${r.runs.length} runs`;
  };
  const t = r.timings;
  const c = r.cpu;
  const core = (w: CpuWindow) => `${f0(((w.agent + w.children + w.tmuxServer) / c.seconds) * 100)}%`;
  const cpuCell = (w: CpuWindow) => `${f2(w.agent)} s agent, ${f2(w.children)} s its tmux commands, ${f2(w.tmuxServer)} s tmux server: **${core(w)}** of one core`;
  const blindS = (t.pollMs * t.blindLookEvery) / 1000;
  const first = r.runs[0] as DialogRun;
  return `## ${DIALOGS_HEADING}

${runLine}

This part ran ${r.runs.length} times; each cell gives runs ${r.runs.map((_, i) => i + 1).join(' / ')}, each of ${first.rounds} timed rounds on a fresh agent
(${each((x) => `${f0(x.seconds)} s`)} for the rounds).

| measure | runs | spread | goal |
| --- | --- | --- | --- |
| dialog on screen (startup offer of auto mode) → \`approval-opened\` on a phone's \`/api/status\`, p50 | **${each((x) => f0(x.dialogP50))} ms** | ${spread((x) => x.dialogP50)} ms | < ${DIALOG_GOALS_MS.p50} ms: ${met((x) => x.dialogP50 < DIALOG_GOALS_MS.p50)} |
| the same, p99 (nearest rank: of ${first.rounds} rounds, the slowest) | **${each((x) => f0(x.dialogP99))} ms** | ${spread((x) => x.dialogP99)} ms | < ${DIALOG_GOALS_MS.p99} ms: ${met((x) => x.dialogP99 < DIALOG_GOALS_MS.p99)} |
| peer, alternating: PermissionRequest through \`hook.sh\` → \`approval-opened\`, p50 / p99 | ${each((x) => `${f1(x.permissionP50)} / ${f1(x.permissionP99)}`)} ms | | |
| dialog ÷ permission, p50 / p99 | ${each((x) => `${f0(x.dialogP50 / x.permissionP50)}× / ${f0(x.dialogP99 / x.permissionP99)}×`)} | | |
| the bench's signal → the stand-in's draw written, p50 / p99 (not in the rows above; 10 ms of it the stand-in dropping stray keys) | ${each((x) => `${f1(x.drawP50)} / ${f1(x.drawP99)}`)} ms | | |
| the card answered ("No, keep manual mode": ↓, then Enter, each seen taken) → the decision's response, p50 | ${each((x) => f0(x.answerP50))} ms | | |
| agent CPU over ${c.seconds} s, ${c.tabs} tabs: shells, no Claude | ${cpuCell(c.noClaude)} | | |
| the same tabs running Claude at its prompt, the minute after SessionStart (each due a look every poll: one \`list-panes\` a poll, a screen read only if written to) | ${cpuCell(c.recent)} | | |
| the minute after that (each due a look every ${t.quietLookEvery}th poll) | ${cpuCell(c.quiet)} | | |

Where the dialog's time goes, by design: no hook fires for this screen, so the agent finds it
by reading the panes (\`tmux capture-pane\`) of the tabs whose Claude runs: a tab is due a look every
${t.pollMs} ms when its status changed in the last ${t.recentMs / 1000} s (Claude just started, a turn ended, a dialog
closed) or it waits, every ${(t.pollMs * t.quietLookEvery) / 1000} s otherwise. A poll with tabs due asks tmux once (\`list-panes -a\`,
each pane's \`window_activity\`: when its window was last written to, in whole seconds) and reads
only the screens written to since it last read them (or since the second that read began); every
${blindS} s it reads every screen due regardless. What it finds it offers only if the screen is
still the same ${t.stableMs} ms later (a screen half drawn, or a dialog answered in the terminal a moment
ago, is not offered). A dialog drawn at a random moment of the poll thus waits 0 to ${t.pollMs} ms to
be seen, then ${t.stableMs} ms, plus two captures: ${t.stableMs + t.pollMs / 2} ms expected at the median, up to
${t.stableMs + t.pollMs} ms and a little more. A tab quiet for more than ${t.recentMs / 1000} s would wait up to
${(t.pollMs * t.quietLookEvery) / 1000} s to be seen; a startup offer comes right after SessionStart, so it is in the first case.
The permission dialog's hook carries its card at once.

How it is measured: a real agent; a tab's pane runs a stand-in named \`claude\` (a copy of bash)
that draws the screens captured from Claude Code 2.1.332, 100 columns wide; the tab reports
as Claude through the agent's \`hooks/hook.sh\` (SessionStart). In each round the bench
first starts \`hook.sh\` with a captured PermissionRequest in a second such tab, timed until
\`approval-opened\` reaches a phone's WebSocket client on \`/api/status\`, and denies it; then,
after a random wait of up to ${DIALOG_BENCH.JITTER_MS} ms (so draws land at every moment of the
poll), writes a line to a FIFO the stand-in waits on; it draws the offer and notes bash's
\`EPOCHREALTIME\` just after writing it to the pane; time runs from that note to
\`approval-opened\` of kind \`dialog\` on the same client, on the same clock. The phone answers
"No, keep manual mode"; the agent moves the cursor and presses Enter, and the next round
waits for the card settled and Claude's prompt drawn again. ${DIALOG_BENCH.WARMUP} rounds are not
counted. The CPU rows use a fresh agent: ${c.tabs} shell tabs for ${c.seconds} s, then the same
number of tabs running the stand-in at Claude's prompt, each reported by SessionStart, for the
two minutes after; CPU is utime + stime from \`/proc\`: the agent's own, its waited-for
children's (the \`tmux\` commands it runs, capture-pane and list-panes among them), and the tmux
server's. A Claude tab costs more than the dialog poll (the safety poll looks for its process,
too): the difference between the rows is an upper bound on what the poll costs. The stand-in
draws Claude's prompt once and then writes nothing, as Claude at rest: a Claude whose screen
keeps changing (a spinner, a status line that ticks) is read at each poll it is due, as all
were before.`;
}
