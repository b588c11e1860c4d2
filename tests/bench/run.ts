/**
 * `npm run bench`: the terminal path measured against its own floor, in one run.
 *
 * Both measurements compare pocketmux's whole path (tmux → node-pty → agent → WebSocket →
 * client) with node-pty attached to the same tmux server directly, in this process, with no
 * agent and no WebSocket. Rounds alternate between the two so machine noise hits both.
 * Results are printed and written to docs/benchmarks.md.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { cleanupAgents, REPO_ROOT, startAgent, tmux } from '../support/agent.js';
import { claim, createTab, type Session, TerminalClient } from '../support/client.js';
import { type AgentDownResult, agentDownBench } from './agent-down.js';
import { claudeTabsBench } from './claude-tabs.js';
import { type HookKindsResult, hookKindsBench } from './hook-kinds.js';
import { hookBench } from './hooks.js';
import { type ApprovalBenchResult, approvalBench } from './approvals.js';
import { median, quantile } from './stats.js';
import { INPUT_BENCH, type InputBenchResult, inputBench } from './input.js';

const FLOOD_COLS = 250;
const FLOOD_ROWS = 80;
const FLOOD_LINES = 220_000;
const FLOOD_WIDTH = FLOOD_COLS - 2;
const FLOOD_BYTES = FLOOD_LINES * (FLOOD_WIDTH + 1);
const FLOOD_ROUNDS = 7;
const KEYSTROKES = 1000;
/** Keys sent before each batch's measured ones, to wake both paths up. */
const WARMUP_KEYS = 10;

interface Sink {
  write(text: string): void;
  onData(fn: (chunk: Uint8Array) => void): void;
  close(): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A terminal through the agent. */
async function viaAgent(session: Session, tabId: string, cols: number, rows: number): Promise<Sink> {
  const term = new TerminalClient(session, tabId, { cols, rows });
  term.keepOutput = false;
  term.trackScreen = false;
  await term.opened;
  const listeners: ((c: Uint8Array) => void)[] = [];
  term.onOutput = (c) => {
    for (const l of listeners) l(c);
  };
  return {
    write: (text) => term.type(text),
    onData: (fn) => listeners.push(fn),
    close: () => term.close(),
  };
}

/** The floor: node-pty reading `tmux attach` in this process. */
function direct(socket: string, confFile: string, session: string, cols: number, rows: number): Sink {
  const p = pty.spawn('tmux', ['-u', '-L', socket, '-f', confFile, 'attach-session', '-t', `=${session}`], {
    name: 'xterm-256color',
    cols,
    rows,
    env: { ...process.env, TERM: 'xterm-256color' } as Record<string, string>,
    encoding: null,
  });
  const listeners: ((c: Uint8Array) => void)[] = [];
  p.onData((c) => {
    for (const l of listeners) l(c as unknown as Uint8Array);
  });
  return { write: (text) => p.write(text), onData: (fn) => listeners.push(fn), close: () => p.kill() };
}

/** Waits until `marker` shows up in the stream; returns ms from `start` and bytes seen. */
function watchFor(sink: Sink, marker: string): { done: Promise<void>; bytes: () => number } {
  let tail = '';
  let bytes = 0;
  let resolve: () => void = () => undefined;
  const done = new Promise<void>((r) => {
    resolve = r;
  });
  let armed = true;
  sink.onData((chunk) => {
    if (!armed) return;
    bytes += chunk.length;
    tail = (tail + Buffer.from(chunk).toString('latin1')).slice(-marker.length - 64);
    if (tail.includes(marker)) {
      armed = false;
      resolve();
    }
  });
  return { done, bytes: () => bytes };
}

async function floodOnce(sink: Sink, round: number): Promise<{ ms: number; bytes: number }> {
  const n = 1000 + round;
  const watch = watchFor(sink, `FLOOD-END-${n}`);
  const start = performance.now();
  sink.write(`seq -f '%0${FLOOD_WIDTH}.0f' 1 ${FLOOD_LINES}; echo FLOOD-END-$((${n - 1}+1))\r`);
  await watch.done;
  const ms = performance.now() - start;
  // Let tmux settle its last repaint before the next round.
  await sleep(300);
  return { ms, bytes: watch.bytes() };
}

/** Resolves the pending echo wait of each sink on its next output. */
const echoWaiters = new WeakMap<Sink, { waiting: (() => void) | null }>();

async function keystrokes(sink: Sink, count: number): Promise<number[]> {
  let slot = echoWaiters.get(sink);
  if (!slot) {
    const created: { waiting: (() => void) | null } = { waiting: null };
    sink.onData(() => {
      const w = created.waiting;
      created.waiting = null;
      w?.();
    });
    echoWaiters.set(sink, created);
    slot = created;
  }
  const samples: number[] = [];
  for (let i = 0; i < count + WARMUP_KEYS; i++) {
    // Type a character, then erase it: the line never grows and every key has an echo.
    const key = i % 2 === 0 ? 'a' : '\x7f';
    const current = slot;
    const echoed = new Promise<void>((r) => {
      current.waiting = r;
    });
    const t0 = performance.now();
    sink.write(key);
    await echoed;
    const dt = performance.now() - t0;
    if (i >= WARMUP_KEYS) samples.push(dt);
    await sleep(2);
  }
  return samples;
}

const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

function inputTable(input: InputBenchResult): string {
  const f2 = (x: number) => x.toFixed(2);
  const f0 = (x: number) => x.toFixed(0);
  const base = input.baseline;
  const col = (pick: (f: NonNullable<InputBenchResult['baseline']>) => string) => (base ? ` ${pick(base)} |` : '');
  const ratio = (ours: number, theirs: number | undefined) => (theirs ? ` ${(theirs / ours).toFixed(1)}× |` : '');
  return [
    `| measure | this build |${base ? ' baseline build | baseline ÷ this build |' : ''}`,
    `| --- | --- |${base ? ' --- | --- |' : ''}`,
    `| \`POST /api/tabs/:id/input\` (\`tab send\`) → echo, p50 / p99 of ${INPUT_BENCH.SINGLE} | **${f2(input.current.restP50)} / ${f2(input.current.restP99)} ms** |${col((b) => `${f2(b.restP50)} / ${f2(b.restP99)} ms`)}${ratio(input.current.restP50, base?.restP50)}`,
    `| web stdin (input bar) frame → echo, p50 / p99 of ${INPUT_BENCH.SINGLE} | **${f2(input.current.webP50)} / ${f2(input.current.webP99)} ms** |${col((b) => `${f2(b.webP50)} / ${f2(b.webP99)} ms`)}${ratio(input.current.webP50, base?.webP50)}`,
    `| ${INPUT_BENCH.BURST_FRAMES.toLocaleString('en')} web-stdin frames at once → last line echoed, median of ${INPUT_BENCH.ROUNDS} | **${f0(input.current.webBurstMs)} ms** |${col((b) => `${f0(b.webBurstMs)} ms`)}${ratio(input.current.webBurstMs, base?.webBurstMs)}`,
    `| ${INPUT_BENCH.BURST_REQUESTS} \`POST /api/tabs/:id/input\` at once → all typed, median of ${INPUT_BENCH.ROUNDS} | **${f0(input.current.restBurstMs)} ms** |${col((b) => `${f0(b.restBurstMs)} ms`)}${ratio(input.current.restBurstMs, base?.restBurstMs)}`,
  ].join('\n');
}

function agentDownRow(down: AgentDownResult): string {
  const f1 = (x: number) => x.toFixed(1);
  const sign = down.difference >= 0 ? '+' : '−';
  return `| agent down: Enter in the pane → permission dialog on screen, HTTP hooks to a closed port / no hooks, p50 of ${down.rounds} each, alternating | ${f1(down.httpP50)} / ${f1(down.noneP50)} ms, difference **${sign}${f1(Math.abs(down.difference))} ms** | within 50 ms |`;
}

function approvalRows(a: ApprovalBenchResult): string {
  const f2 = (x: number) => x.toFixed(2);
  return [
    `| approvals: PermissionRequest posted as Claude's HTTP hook → \`approval-opened\` on a WebSocket client, p50 / p99 of ${a.rounds} | ${f2(a.openedP50)} / **${f2(a.openedP99)} ms** | p99 ≤ 5 ms |`,
    `| approvals: decision \`POST /api/approvals/:id\` → the held hook request answered, p50 / p99 of ${a.rounds} | ${f2(a.answeredP50)} / **${f2(a.answeredP99)} ms** | p99 ≤ 5 ms |`,
    `| peer, alternating with the two above: UserPromptSubmit posted → \`status:update\`, p50 / p99 | ${f2(a.peerP50)} / ${f2(a.peerP99)} ms | |`,
    `| Web Push: PermissionRequest posted → its push (aes128gcm, VAPID-signed) received by a push endpoint on loopback, p50 / p99 of ${a.rounds} | ${f2(a.pushP50)} / **${f2(a.pushP99)} ms** | p99 ≤ 50 ms |`,
  ].join('\n');
}

function hookKindsRow(kinds: HookKindsResult): string {
  const f1 = (x: number) => x.toFixed(1);
  const sign = kinds.saved >= 0 ? '' : '−';
  return `| hook kinds: Enter in the pane → \`status:update\` \`busy\` on a WebSocket client, HTTP hooks (\`settings.json\`) / command hooks (\`settings-command.json\`), p50 / p99 of ${kinds.rounds} each, alternating | HTTP **${f1(kinds.httpP50)}** / ${f1(kinds.httpP99)} ms, command ${f1(kinds.commandP50)} / ${f1(kinds.commandP99)} ms, HTTP p50 lower by **${sign}${f1(Math.abs(kinds.saved))} ms** | HTTP p50 ≥ 6 ms lower |`;
}

async function main(): Promise<void> {
  if (process.argv.includes('--agent-down-only')) {
    // No agent at all: that is the point of this part.
    process.stdout.write(`\n${agentDownRow(await agentDownBench(undefined, progress))}\n`);
    return;
  }
  if (process.argv.includes('--hook-kinds-only')) {
    // An agent of its own, with the CLI's environment.
    process.stdout.write(`\n${hookKindsRow(await hookKindsBench(undefined, progress))}\n`);
    return;
  }
  // Pushes go to an endpoint in this process, over plain HTTP on loopback.
  const agent = await startAgent({ env: { POCKETMUX_PUSH_INSECURE_LOOPBACK: '1' } });
  try {
    const session = await claim(agent, 'bench');
    if (process.argv.includes('--approvals-only')) {
      process.stdout.write(`\n${approvalRows(await approvalBench(agent, session, progress))}\n`);
      return;
    }
    if (process.argv.includes('--input-only')) {
      process.stdout.write(`\n${inputTable(await inputBench(session, progress))}\n`);
      return;
    }
    progress('terminal flood');
    const conf = join(agent.dataDir, 'tmux.conf');

    // Throughput: one tab per path, both on the agent's tmux server.
    const ours = await createTab(session);
    const floor = await createTab(session);
    const oursSink = await viaAgent(session, ours.id, FLOOD_COLS, FLOOD_ROWS);
    const floorSink = direct(agent.tmuxSocket, conf, `pm_${floor.workspaceId}_${floor.id}`, FLOOD_COLS, FLOOD_ROWS);
    await sleep(800);
    const oursFlood: { ms: number; bytes: number }[] = [];
    const floorFlood: { ms: number; bytes: number }[] = [];
    for (let r = 0; r < FLOOD_ROUNDS; r++) {
      floorFlood.push(await floodOnce(floorSink, r * 2));
      oursFlood.push(await floodOnce(oursSink, r * 2 + 1));
    }
    oursSink.close();
    floorSink.close();

    // Keystroke echo: `cat` in both panes, keys one at a time.
    const keyOurs = await createTab(session);
    const keyFloor = await createTab(session);
    for (const t of [keyOurs, keyFloor]) await tmux(agent.tmuxSocket, 'send-keys', '-t', `=pm_${t.workspaceId}_${t.id}:`, 'exec cat', 'Enter');
    const keyOursSink = await viaAgent(session, keyOurs.id, 80, 24);
    const keyFloorSink = direct(agent.tmuxSocket, conf, `pm_${keyFloor.workspaceId}_${keyFloor.id}`, 80, 24);
    await sleep(800);
    const latOurs: number[] = [];
    const latFloor: number[] = [];
    // Ten alternating batches, so a noisy moment on the machine lands on both paths.
    const batch = KEYSTROKES / 10;
    for (let b = 0; b < 10; b++) {
      latFloor.push(...(await keystrokes(keyFloorSink, batch)));
      latOurs.push(...(await keystrokes(keyOursSink, batch)));
    }
    keyOursSink.close();
    keyFloorSink.close();

    progress('input');
    const input = await inputBench(session, progress);
    progress('hooks');
    const hooks = await hookBench(agent, session);
    progress('approvals');
    const approvals = await approvalBench(agent, session, progress);
    progress('20 Claude tabs');
    const claudeTabs = await claudeTabsBench(20);
    progress('agent down');
    const agentDown = await agentDownBench(undefined, progress);
    progress('hook kinds');
    const hookKinds = await hookKindsBench(undefined, progress);

    const mbps = (runs: { ms: number }[]) => FLOOD_BYTES / 1e6 / (median(runs.map((r) => r.ms)) / 1000);
    const wire = (runs: { ms: number; bytes: number }[]) => median(runs.map((r) => r.bytes / 1e6 / (r.ms / 1000)));
    const oursMBps = mbps(oursFlood);
    const floorMBps = mbps(floorFlood);
    // Rounds come in pairs, one per path back to back; the ratio of each pair cancels slow
    // drifts of the machine, and the median of those ratios is the figure.
    const pairRatios = oursFlood.map((o, i) => (floorFlood[i] as { ms: number }).ms / o.ms);
    const r = {
      throughputRatio: median(pairRatios),
      oursMBps,
      floorMBps,
      oursWire: wire(oursFlood),
      floorWire: wire(floorFlood),
      p50: quantile(latOurs, 0.5),
      p99: quantile(latOurs, 0.99),
      floorP50: quantile(latFloor, 0.5),
      floorP99: quantile(latFloor, 0.99),
    };

    const when = new Date().toISOString().slice(0, 10);
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    const f1 = (x: number) => x.toFixed(1);
    const f2 = (x: number) => x.toFixed(2);
    const table = [
      '| measure | pocketmux (tmux → node-pty → agent → WebSocket → client) | floor (node-pty on `tmux attach`, same process) | result | goal |',
      '| --- | --- | --- | --- | --- |',
      `| flood throughput, ${(FLOOD_BYTES / 1e6).toFixed(1)} MB of output, median of ${FLOOD_ROUNDS} | ${f1(r.oursMBps)} MB/s | ${f1(r.floorMBps)} MB/s | ratio **${f2(r.throughputRatio)}** (median of paired rounds; each pair: ${pairRatios.map(f2).join(', ')}) | ≥ 0.95 |`,
      `| bytes tmux forwarded during the flood, median | ${f1(r.oursWire)} MB/s | ${f1(r.floorWire)} MB/s | | |`,
      `| keystroke echo p50, ${KEYSTROKES} keys | **${f2(r.p50)} ms** | ${f2(r.floorP50)} ms | | ≤ 1 ms |`,
      `| keystroke echo p99, ${KEYSTROKES} keys | **${f2(r.p99)} ms** | ${f2(r.floorP99)} ms | | ≤ 2.5 ms |`,
    ].join('\n');
    const hookTable = [
      '| measure | result | goal |',
      '| --- | --- | --- |',
      `| hook.sh run → \`status:update\` on a WebSocket client, p50 / p99 of 1,000 | **${f2(hooks.scriptP50)} / ${f2(hooks.scriptP99)} ms** | ≤ 10 / ≤ 15 ms |`,
      `| floor: sh + one curl posting to a bare HTTP server, p50 / p99, alternating with the row above | ${f2(hooks.floorP50)} / ${f2(hooks.floorP99)} ms | |`,
      `| agent only: HTTP POST → WebSocket message, p50 / p99 of 1,000 | ${f2(hooks.agentP50)} / **${f2(hooks.agentP99)} ms** | p99 < 5 ms |`,
      `| ${hooks.loadSent.toLocaleString('en')} events over ${hooks.loadTabs} tabs in ${f1(hooks.loadSeconds)} s | **${hooks.lost} lost, ${hooks.reordered} reordered** | none |`,
      `| agent RSS after that load, ${hooks.loadTabs} shell tabs | ${(hooks.rssKiB / 1024).toFixed(0)} MiB | |`,
      `| agent RSS with ${claudeTabs.tabs} Claude tabs running the real CLI (before creating them) | **${(claudeTabs.agentRssKiB / 1024).toFixed(0)} MiB** (${(claudeTabs.agentRssBeforeKiB / 1024).toFixed(0)} MiB) | |`,
      `| for scale: the ${claudeTabs.tabs} claude processes themselves | ${(claudeTabs.claudeRssKiB / 1024).toFixed(0)} MiB | |`,
      approvalRows(approvals),
      agentDownRow(agentDown),
      hookKindsRow(hookKinds),
    ].join('\n');
    const inputRows = inputTable(input);
    process.stdout.write(`\n${table}\n\n${inputRows}\n\n${hookTable}\n`);

    const doc = `# Benchmarks

Produced by \`npm run bench\` (\`tests/bench/run.ts\`), all figures from one run on ${when},
${cpus().length} cores (${cpu}), Node ${process.version}. Each pocketmux figure is measured beside
its floor in the same run, rounds alternating, so the ratio is what counts, not the
absolute numbers.

## Terminal

${table}

How it is measured:

- **Throughput**: in a ${FLOOD_COLS}×${FLOOD_ROWS} pane, \`seq -f '%0${FLOOD_WIDTH}.0f' 1 ${FLOOD_LINES}\` prints
  ${(FLOOD_BYTES / 1e6).toFixed(1)} MB of full-width lines, then a marker. Time runs from sending the
  command to the marker reaching the client. The floor is node-pty attached with \`tmux attach\`
  to another session of the same tmux server, read in the bench process. tmux is a terminal,
  not a pipe: when its reader lags it skips frames and repaints, so how many bytes it
  forwards varies from run to run (second row); the time for the program's output to get
  through is the figure that matters. The ratio is taken per pair of back-to-back rounds and
  the median of those is reported, with every pair listed, since the spread is wide.
- **Keystroke echo**: \`cat\` runs in the pane; one key is sent (alternately \`a\` and
  backspace, so the line never grows), and the time runs until the first output comes back.
  Keys are sent one at a time, 2 ms apart, in ten batches alternating between the two
  paths, each after ${WARMUP_KEYS} warm-up keys.

## Typing into a tab

${inputRows}

How it is measured: \`cat\` runs in a tab with a terminal attached; each key (alternately
\`a\` and backspace) is typed through the API or as an input-bar frame, and the time runs until
its echo reaches the terminal. The bursts send every frame or request at once and wait for
the last line's echo (for the requests, for a marker typed after all of them).${
      input.baseline
        ? ` The baseline column is another build of pocketmux (\`POCKETMUX_BENCH_BASELINE\`), measured in
the same run, rounds alternating.`
        : ''
    }

## Claude hooks

${hookTable}

How it is measured: the installed \`hooks/hook.sh\` is started with \`/bin/sh\` and a captured
payload on stdin, with \`TMUX\`/\`TMUX_PANE\` of a real tab, as Claude starts it; time runs
until the matching \`status:hook-event\` reaches a client on \`/api/status\` (UserPromptSubmit
and Stop alternate, so each one changes the state). 50 warm-up events are not counted. The
agent-only row replaces the script with an HTTP POST (node:http, keep-alive) from the bench
process. The load row
posts at a steady 1,000 a second for 10 s, round-robin over 20 tabs, and checks every tab's
sequence numbers on the client: none missing, none out of order. The Claude-tab rows start
20 Claude tabs on a fresh agent, each running the real Claude Code CLI against the stand-in
API in \`tests/\`, wait until every one has reported SessionStart, let statusLine reports
settle for 3 s, and read VmRSS from \`/proc\`. The agent-down row runs no agent: two real
CLIs side by side, one with an HTTP hook on every event but SessionStart, all posting to a
loopback port nothing listens on, the other with no hooks; in each round a prompt is typed,
Enter is pressed through a terminal attached to the pane, time runs until the permission
dialog for the Bash call the stand-in API asks for is drawn there, and the dialog is answered
No; rounds alternate between the two, after one unmeasured round each. The hook-kinds row
compares the two settings files the agent generates: two real CLIs run in tabs of one agent,
one started with \`hooks/settings.json\` (Claude POSTs each event itself), the other with
\`hooks/settings-command.json\` (each event runs hook.sh: sh and curl); in each round a prompt is
typed, Enter is pressed through a terminal attached to the pane, and time runs until the
\`status:update\` saying \`busy\` (from UserPromptSubmit) reaches a client on \`/api/status\`;
the stand-in API answers with text, the turn ends (Stop), and the other CLI takes its turn,
the order swapping every round, after one unmeasured round each. The approval rows post a
captured PermissionRequest as Claude's HTTP hook does (node:http, keep-alive) and time it
until \`approval-opened\` reaches a client on \`/api/status\`; then a device's decision
(\`allow\`) until the held hook request gets its answer; each round first posts a
UserPromptSubmit, timed to its \`status:update\`, as the peer; 20 warm-up rounds are not
counted. The Web Push row runs the same rounds again after the device subscribed to a push
endpoint in the bench process (over plain HTTP on loopback, as
\`POCKETMUX_PUSH_INSECURE_LOOPBACK=1\` allows), timing from the PermissionRequest post until that
endpoint has received the push, checked its VAPID signature and decrypted it. The agent sends
  each pty read at once; there is no batching timer on the output path.
`;
    writeFileSync(join(REPO_ROOT, 'docs', 'benchmarks.md'), doc);
    process.stdout.write('\nwritten to docs/benchmarks.md\n');
  } finally {
    await agent.stop();
    await cleanupAgents();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
