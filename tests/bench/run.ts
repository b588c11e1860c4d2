/**
 * `npm run bench`: the terminal path measured against its own floor and against wetty, the
 * input path, and the hooks, in one run.
 *
 * The terminal measurements compare pocketmux's whole path (tmux → node-pty → agent →
 * WebSocket → client) with node-pty attached to the same tmux server directly, in this
 * process, and with wetty on that server (terminal.ts). Rounds alternate between the paths
 * so machine noise hits all of them. Results are printed and written to docs/benchmarks.md,
 * every figure to docs/benchmarks.json; `--only terminal` runs and replaces that section
 * alone, and `--compare old.json` prints each figure's change against an earlier file.
 * `--half-open-only` runs the half-open flood (half-open-flood.ts) alone and replaces its
 * section the same way, `--assets-only` the bytes the PWA's files take on the wire
 * (assets.ts), `--cli-only` the CLI's start times (cli-start.ts), and `--dialogs-only` a
 * dialog on screen until its card is on a phone, beside a permission dialog's hook (dialogs.ts),
 * and `--review-only` what review costs, each beside a peer (review.ts), and
 * `--machines-only` what a home agent adds for its linked machines (machines.ts).
 * `--only browser` runs the browser part (browser.ts: pocketmux's page beside wetty's in
 * Chromium) alone and replaces its section the same way; a full run does not run it and keeps
 * that section as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentHandle, cleanupAgents, REPO_ROOT, startAgent } from '../support/agent.js';
import { claim, type Session } from '../support/client.js';
import { type AgentDownResult, agentDownBench } from './agent-down.js';
import { ASSETS_HEADING, type AssetsBenchResult, assetsBench, assetsSection } from './assets.js';
import { claudeTabsBench } from './claude-tabs.js';
import { type HookKindsResult, hookKindsBench } from './hook-kinds.js';
import { hookBench } from './hooks.js';
import { type ApprovalBenchResult, approvalBench } from './approvals.js';
import { INPUT_BENCH, type InputBenchResult, inputBench } from './input.js';
import { BUSY_PROCESSES, whileBusy } from './busy.js';
import { compareFigures, type BenchRecord, namedSection, type RunInfo, type TerminalFigures, terminalSection, withNamedSection, withSection } from './report.js';
import { terminalBench } from './terminal.js';
import { type LoadBenchResult, loadBench } from './load.js';
import { HALF_OPEN_BENCH, type HalfOpenBenchResult, halfOpenFloodBench, halfOpenSection } from './half-open-flood.js';
import { CLI_START_HEADING, type CliStartResult, cliStartBench, cliStartSection } from './cli-start.js';
import { DIALOGS_HEADING, type DialogBenchResult, dialogBench, dialogsSection } from './dialogs.js';
import { browserBench } from './browser.js';
import { BROWSER_HEADING, browserFigures, browserSection } from './browser-figures.js';
import { REVIEW_HEADING, type ReviewBenchResult, reviewBench, reviewSection } from './review.js';
import { MACHINES_HEADING, type MachinesBenchResult, machinesBench, machinesSection } from './machines.js';

const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

const DOC_FILE = join(REPO_ROOT, 'docs', 'benchmarks.md');
const JSON_FILE = join(REPO_ROOT, 'docs', 'benchmarks.json');

/** The value after `flag` on the command line, if it is there. */
function option(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const only = option('--only');
const compareWith = option('--compare');

function run(command: string): RunInfo {
  return {
    command,
    date: new Date().toISOString().slice(0, 10),
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown CPU',
    node: process.version,
    load: loadavg()[0],
  };
}

function runLine(info: RunInfo): string {
  return `From one run of \`${info.command}\` on ${info.date}, ${info.cores} cores (${info.cpu}), Node ${info.node}${info.load === undefined ? '' : `, load average ${info.load.toFixed(1)} as it ended`}.`;
}

const DOC_HEADER = `Produced by \`npm run bench\` (\`tests/bench/run.ts\`), which prints each phase and round as it
goes, writes this file and every figure to \`docs/benchmarks.json\`, and with \`--compare
old.json\` prints each figure's change against an earlier such file. Each section names the run
its figures come from; all the figures of a section come from that one run. \`npm run bench --
--only terminal\` runs the terminal section alone (about ten minutes: idle, then busy) and replaces only it,
here and in the JSON; \`--only browser\` runs and replaces the browser section, which only it
measures (about twenty minutes). Each pocketmux figure is measured beside its floor (and its peer) in the
same run, rounds alternating, so the ratio is what counts, not the absolute numbers.`;

/**
 * Writes the JSON (the sections of this run replace those of the file; the others stay, each
 * with its own run), the Markdown for a terminal-only run, and the comparison if asked for.
 */
async function report(info: RunInfo, figures: Record<string, unknown>, full = false): Promise<void> {
  const previous: BenchRecord = existsSync(JSON_FILE) ? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as BenchRecord) : { sections: {} };
  // A full run replaces every section but the browser's, which only `--only browser` measures.
  const record: BenchRecord = { sections: full ? (previous.sections.browser ? { browser: previous.sections.browser } : {}) : { ...previous.sections } };
  if (full) {
    record.sections.terminal = { run: info, figures: figures.terminal };
    const { terminal: _, halfOpen, assets, cliStart, dialogs, ...rest } = figures;
    record.sections.rest = { run: info, figures: rest };
    record.sections.halfOpen = { run: info, figures: halfOpen };
    record.sections.assets = { run: info, figures: assets };
    record.sections.cliStart = { run: info, figures: cliStart };
    record.sections.dialogs = { run: info, figures: dialogs };
  } else {
    record.sections.terminal = { run: info, figures: figures.terminal };
    const doc = withSection(readFileSync(DOC_FILE, 'utf8'), DOC_HEADER, terminalSection(figures.terminal as TerminalFigures, info));
    writeFileSync(DOC_FILE, doc);
    process.stdout.write(`\n${terminalSection(figures.terminal as TerminalFigures, info)}\n`);
  }
  writeFileSync(JSON_FILE, `${JSON.stringify(record, null, 2)}\n`);
  process.stdout.write('\nwritten to docs/benchmarks.md and docs/benchmarks.json\n');
  if (compareWith) {
    const old = JSON.parse(readFileSync(resolve(compareWith), 'utf8')) as BenchRecord;
    process.stdout.write(`\nchange against ${compareWith}:\n${compareFigures(old, record)}\n`);
  }
}

const HALF_OPEN_HEADING = 'A flood of half-open connections';

/** One section's figures and text, from a run of that part alone: the others stay as they are. */
function writeSection(
  name: string,
  heading: string,
  info: RunInfo,
  figures: HalfOpenBenchResult | AssetsBenchResult | CliStartResult | DialogBenchResult | ReviewBenchResult | MachinesBenchResult | ReturnType<typeof browserFigures>,
  text: string,
): void {
  const record: BenchRecord = existsSync(JSON_FILE) ? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as BenchRecord) : { sections: {} };
  record.sections[name] = { run: info, figures };
  writeFileSync(JSON_FILE, `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(DOC_FILE, withNamedSection(readFileSync(DOC_FILE, 'utf8'), heading, text));
  process.stdout.write(`\n${text}\n\nwritten to docs/benchmarks.md and docs/benchmarks.json\n`);
}

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

function loadRows(l: LoadBenchResult): string {
  const f2 = (x: number) => x.toFixed(2);
  const mib = (k: number) => (k / 1024).toFixed(0);
  const n = (x: number) => x.toLocaleString('en');
  return [
    `| hook load: ${n(l.sent)} events over ${l.options.tabs} tabs (${n(l.sentHttp)} as Claude's HTTP hooks, ${n(l.sentScript)} through hook.sh), ${l.options.clients} clients on \`/api/status\`, ${l.options.claudeTabs} real Claude tabs taking turns; asked ${n(l.options.rate)} a second for ${l.options.seconds} s | **${n(Math.round(l.rate))} a second** reached; **${l.lost} lost, ${l.reordered} reordered, ${l.duplicated} duplicated** | 1,000 a second; none |`,
    `| hook load: post → \`status:hook-event\` on a client, p50 / p99 of ${n(l.latency.samples)} (every event on every client) | ${f2(l.latency.p50)} / **${f2(l.latency.p99)} ms** (HTTP hooks ${f2(l.latencyHttp.p50)} / ${f2(l.latencyHttp.p99)}, hook.sh ${f2(l.latencyScript.p50)} / ${f2(l.latencyScript.p99)}) | |`,
    `| hook load: agent RSS before / peak / after; agent CPU during it | ${mib(l.rssKiB.before)} / **${mib(l.rssKiB.peak)}** / ${mib(l.rssKiB.after)} MiB; **${l.cpuPercent.toFixed(0)}%** of one core | |`,
  ].join('\n');
}

function hookKindsRow(kinds: HookKindsResult): string {
  const f1 = (x: number) => x.toFixed(1);
  const sign = kinds.saved >= 0 ? '' : '−';
  return `| hook kinds: Enter in the pane → \`status:update\` \`busy\` on a WebSocket client, HTTP hooks (\`settings.json\`) / command hooks (\`settings-command.json\`), p50 / p99 of ${kinds.rounds} each, alternating | HTTP **${f1(kinds.httpP50)}** / ${f1(kinds.httpP99)} ms, command ${f1(kinds.commandP50)} / ${f1(kinds.commandP99)} ms, HTTP p50 lower by **${sign}${f1(Math.abs(kinds.saved))} ms** | HTTP p50 ≥ 6 ms lower |`;
}

/** The terminal part twice: on the machine as it is, then beside processes that keep its cores busy. */
async function terminalFigures(agent: AgentHandle, session: Session, catFile: string): Promise<TerminalFigures> {
  progress('terminal, on an idle machine');
  const idle = await terminalBench(agent, session, progress, catFile);
  progress(`terminal, on a busy machine: ${BUSY_PROCESSES} processes spinning a core each`);
  const busy = await whileBusy(() => terminalBench(agent, session, progress, catFile));
  return { idle, busy, busyProcesses: BUSY_PROCESSES };
}

async function main(): Promise<void> {
  const against = process.argv[process.argv.indexOf('--compare') + 2];
  if (compareWith && against && !against.startsWith('--')) {
    // Two files: compare them without running anything.
    const read = (f: string) => JSON.parse(readFileSync(resolve(f), 'utf8')) as BenchRecord;
    process.stdout.write(`${compareFigures(read(compareWith), read(against))}\n`);
    return;
  }
  if (only !== undefined && only !== 'terminal' && only !== 'browser') throw new Error(`--only takes "terminal" or "browser", not "${only}"`);
  if (only === 'browser') {
    // An agent and a Chromium of its own; the figures replace that section alone, here and in the JSON.
    const browser = await browserBench(progress);
    const info = run('npm run bench -- --only browser');
    writeSection('browser', BROWSER_HEADING, info, browserFigures(browser), browserSection(browser, runLine(info)));
    return;
  }
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
  if (process.argv.includes('--half-open-only')) {
    // An agent of its own; the figures replace that section alone, here and in the JSON.
    const halfOpen = await halfOpenFloodBench(progress);
    const info = run('npm run bench -- --half-open-only');
    writeSection('halfOpen', HALF_OPEN_HEADING, info, halfOpen, halfOpenSection(halfOpen, runLine(info)));
    return;
  }
  if (process.argv.includes('--assets-only')) {
    // An agent of its own; the figures replace that section alone, here and in the JSON.
    const agent = await startAgent();
    try {
      const assets = await assetsBench(agent.url);
      const info = run('npm run bench -- --assets-only');
      writeSection('assets', ASSETS_HEADING, info, assets, assetsSection(assets, runLine(info)));
    } finally {
      await cleanupAgents();
    }
    return;
  }
  if (process.argv.includes('--cli-only')) {
    // Agents of its own, one a run; the figures replace that section alone, here and in the JSON.
    const cliStart = await cliStartBench(progress);
    const info = run('npm run bench -- --cli-only');
    writeSection('cliStart', CLI_START_HEADING, info, cliStart, cliStartSection(cliStart, runLine(info)));
    return;
  }
  if (process.argv.includes('--dialogs-only')) {
    // Agents of its own, one a run; the figures replace that section alone, here and in the JSON.
    // Each of its runs ends by stopping every agent the bench started, as the load part does.
    const dialogs = await dialogBench(progress);
    const info = run('npm run bench -- --dialogs-only');
    writeSection('dialogs', DIALOGS_HEADING, info, dialogs, dialogsSection(dialogs, runLine(info)));
    return;
  }
  if (process.argv.includes('--review-only')) {
    // An agent and a Chromium of its own; the figures replace that section alone, here and in the JSON.
    const review = await reviewBench(progress);
    const info = run('npm run bench -- --review-only');
    writeSection('review', REVIEW_HEADING, info, review, reviewSection(review, runLine(info)));
    return;
  }
  if (process.argv.includes('--machines-only')) {
    // Agents of its own: a home agent and up to ten linked ones; the figures replace that section alone.
    const machines = await machinesBench(progress);
    const info = run('npm run bench -- --machines-only');
    writeSection('machines', MACHINES_HEADING, info, machines, machinesSection(machines, runLine(info)));
    return;
  }
  if (process.argv.includes('--load-only')) {
    // An agent of its own, with the CLI's environment.
    process.stdout.write(`\n${loadRows(await loadBench({}, progress))}\n`);
    return;
  }
  // Pushes go to an endpoint in this process, over plain HTTP on loopback; the terminal part
  // reads the agent's event-loop delay beside its echo.
  const agent = await startAgent({ env: { POCKETMUX_PUSH_INSECURE_LOOPBACK: '1', POCKETMUX_MEASURE_LOOP_DELAY: '1' } });
  try {
    const session = await claim(agent, 'bench');
    if (process.argv.includes('--approvals-only')) {
      process.stdout.write(`\n${approvalRows(await approvalBench(agent, session, progress))}\n`);
      return;
    }
    if (process.argv.includes('--hooks-only')) {
      const hooks = await hookBench(agent, session, progress);
      process.stdout.write(`\n${JSON.stringify(hooks, null, 2)}\n`);
      return;
    }
    if (process.argv.includes('--input-only')) {
      process.stdout.write(`\n${inputTable(await inputBench(session, progress))}\n`);
      return;
    }
    progress('bytes on the wire');
    const assets = await assetsBench(agent.url);
    const terminal = await terminalFigures(agent, session, join(agent.root, 'random.b64'));
    if (only === 'terminal') {
      await report(run('npm run bench -- --only terminal'), { terminal });
      return;
    }

    progress('input');
    const input = await inputBench(session, progress);
    progress('hooks');
    const hooks = await hookBench(agent, session, progress);
    progress('approvals');
    const approvals = await approvalBench(agent, session, progress);
    progress('20 Claude tabs');
    const claudeTabs = await claudeTabsBench(20, progress);
    progress('agent down');
    const agentDown = await agentDownBench(undefined, progress);
    progress('hook kinds');
    const hookKinds = await hookKindsBench(undefined, progress);
    progress('CLI start');
    const cliStart = await cliStartBench(progress);
    // Each of its runs ends by stopping every agent the bench started, as the load part does.
    const dialogs = await dialogBench(progress);
    // Last: like the Claude tabs' part it ends by stopping every agent the bench started.
    progress('hook load: 50 tabs, 1,000 events a second for 60 s, 8 clients');
    const load = await loadBench({}, progress);
    progress(`half-open flood: ${HALF_OPEN_BENCH.CONNECTIONS.toLocaleString('en')} connections`);
    const halfOpen = await halfOpenFloodBench(progress);

    const info = run('npm run bench');
    const f1 = (x: number) => x.toFixed(1);
    const f2 = (x: number) => x.toFixed(2);
    const hookTable = [
      '| measure | result | goal |',
      '| --- | --- | --- |',
      `| hook.sh run → \`status:update\` on a WebSocket client, p50 / p99 of 1,000 | **${f2(hooks.scriptP50)} / ${f2(hooks.scriptP99)} ms** | ≤ 10 / ≤ 15 ms |`,
      `| floor: sh + one curl posting to a bare HTTP server, p50 / p99, alternating with the row above | ${f2(hooks.floorP50)} / ${f2(hooks.floorP99)} ms | |`,
      `| agent only: HTTP POST → WebSocket message, p50 / p99 of 1,000 | ${f2(hooks.agentP50)} / **${f2(hooks.agentP99)} ms** | p99 < 5 ms |`,
      `| Codex: hook.sh run with Codex's payloads (\`codex/<event>\`) → \`status:update\`, p50 / p99 of ${hooks.codex.rounds.toLocaleString('en')}, beside Claude's, alternating | Codex **${f2(hooks.codex.codexP50)} / ${f2(hooks.codex.codexP99)} ms**, Claude ${f2(hooks.codex.claudeP50)} / ${f2(hooks.codex.claudeP99)} ms | Codex within 1 ms of Claude at p50 |`,
      `| ${hooks.loadSent.toLocaleString('en')} events over ${hooks.loadTabs} tabs in ${f1(hooks.loadSeconds)} s | **${hooks.lost} lost, ${hooks.reordered} reordered** | none |`,
      `| agent RSS after that load, ${hooks.loadTabs} shell tabs: half a second after / 20 s later (as it started) | ${(hooks.rssKiB / 1024).toFixed(0)} / **${(hooks.rssSettledKiB / 1024).toFixed(0)} MiB** (${(hooks.rssBeforeKiB / 1024).toFixed(0)} MiB) | ≤ 110 MiB |`,
      `| agent RSS with ${claudeTabs.tabs} Claude tabs running the real CLI (before creating them) | **${(claudeTabs.agentRssKiB / 1024).toFixed(0)} MiB** (${(claudeTabs.agentRssBeforeKiB / 1024).toFixed(0)} MiB) | |`,
      `| for scale: the ${claudeTabs.tabs} claude processes themselves | ${(claudeTabs.claudeRssKiB / 1024).toFixed(0)} MiB | |`,
      approvalRows(approvals),
      agentDownRow(agentDown),
      hookKindsRow(hookKinds),
      loadRows(load),
    ].join('\n');
    const inputRows = inputTable(input);
    const terminalText = terminalSection(terminal, info);
    process.stdout.write(`\n${terminalText}\n\n${inputRows}\n\n${hookTable}\n`);

    const doc = `# Benchmarks

${DOC_HEADER}

${terminalText}

## Typing into a tab

${runLine(info)}

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

${runLine(info)}

${hookTable}

How it is measured: the installed \`hooks/hook.sh\` is started with \`/bin/sh\` and a captured
payload on stdin, with \`TMUX\`/\`TMUX_PANE\` of a real tab, as Claude starts it; time runs
until the matching \`status:hook-event\` reaches a client on \`/api/status\` (UserPromptSubmit
and Stop alternate, so each one changes the state). 50 warm-up events are not counted. The
agent-only row replaces the script with an HTTP POST (node:http, keep-alive) from the bench
process. The Codex row runs the same script as Codex runs it (\`hook.sh codex/<event>\`) with
Codex 0.169.0's captured payloads, into a tab of its own, each round after one of Claude's
(25 warm-up rounds not counted): Codex's payloads go through Codex's schemas and then
Claude's. The load row
posts at a steady 1,000 a second for 10 s, round-robin over 20 tabs, and checks every tab's
sequence numbers on the client: none missing, none out of order. The agent's RSS is read as
the load starts, half a second after it and again after 20 s idle; the agent is the one the
terminal and input parts ran in. It used to read 120 to 155 MiB half a second after, for two
reasons. Behind Express's router and body parser each event allocated about twice as much,
and some of it lived long enough for V8 to grow its young generation to 32 MiB and move a few
MiB a second into old space, garbage held until V8's memory reducer ran, often later than
20 s; the hook intake is plain Node now (\`agent/http/hook-routes.ts\`), and during the same
load the young generation no longer grows and nothing is moved to old space, as
\`--trace-gc\` shows; the agent's live heap is about 17 MiB throughout. And the terminal
part's floods had grown the young generation to 32 MiB, which V8 keeps while the agent waits
(105 MiB for a minute of idling after that part, 80 MiB at start), and so do the input part's
10,000 typed frames (RSS 115 MiB after them, 62 MiB of heap of which 32 young generation, 5
MiB of that in use): the agent now gives it back once it is quiet with its heap grown 16 MiB
past what it held after its last trim (\`agent/util/memory-trim.ts\`, one full collection;
that brought the same heap to 20 MiB and RSS to 74). The Claude-tab rows start
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
endpoint has received the push, checked its VAPID signature and decrypted it.

The hook-load rows run \`tests/support/hook-load.ts\`, the load of
\`tests/load/hook-load.test.ts\`, on a fresh agent with the real CLI. 50 shell tabs each replay
the captured session in order (SessionStart, the captured prompts four times over, SessionEnd,
resumed), each with its own session id and transcript. A tab sends its next event only once
the previous one is answered (a held PermissionRequest: once the agent has it), paced to 1,000
events a second in all for 60 s. Events go as HTTP hooks the way Claude posts them (node:http,
keep-alive); SessionStart and every event of one tab go through \`hooks/hook.sh\`, started with
\`/bin/sh\`. Meanwhile two Claude tabs take two turns each, and eight devices each hold a
client on \`/api/status\`. Latency runs from the start of the post (or of sh) to the matching
\`status:hook-event\` on each client. RSS is VmRSS from \`/proc\`: before, the highest of one
sample a second, and at the end. CPU is the agent's utime + stime over the load.

${halfOpenSection(halfOpen, runLine(info))}

${assetsSection(assets, runLine(info))}

${cliStartSection(cliStart, runLine(info))}

${dialogsSection(dialogs, runLine(info))}
`;
    // The sections only their own flag measures are kept as they were.
    const before = readFileSync(DOC_FILE, 'utf8');
    let kept = doc;
    for (const heading of [BROWSER_HEADING, REVIEW_HEADING, MACHINES_HEADING]) {
      const text = namedSection(before, heading);
      if (text) kept = withNamedSection(kept, heading, text);
    }
    writeFileSync(DOC_FILE, kept);
    await report(info, { terminal, input, hooks, approvals, claudeTabs, agentDown, hookKinds, load, halfOpen, assets, cliStart, dialogs }, true);
  } finally {
    await agent.stop();
    await cleanupAgents();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
