/**
 * What `npm run bench` writes: the terminal section of docs/benchmarks.md, the JSON record of
 * every figure, and the comparison of two records.
 */
import { CAT, ECHO, FLOOD, FLOOD_BYTES, type TerminalBenchResult } from './terminal.js';

/** Which run a section's figures come from. */
export interface RunInfo {
  command: string;
  date: string;
  cores: number;
  cpu: string;
  node: string;
  /** The 1-minute load average as the run ended: the machine may be shared. */
  load?: number;
}

/** docs/benchmarks.json: each section with the run it comes from. */
export interface BenchRecord {
  sections: Record<string, { run: RunInfo; figures: unknown }>;
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

export const GOALS = { catVsDirect: 0.95, catVsWetty: 1.05, floodVsDirect: 0.95, echoP99VsWetty: 0.35, echoP99VsDirect: 1.5, echoP50Ms: 1 } as const;

/** The terminal bench on an idle machine and on a busy one, from one run. */
export interface TerminalFigures {
  idle: TerminalBenchResult;
  busy: TerminalBenchResult;
  /** Spinning processes beside the busy half. */
  busyProcesses: number;
}

/** One half's table: each path's figures side by side, the ratios and the goals. */
export function terminalTable(t: TerminalBenchResult): string {
  const { direct, pocketmux, wetty } = t.paths;
  const r = t.ratios;
  const each = (xs: number[]) => xs.map(f2).join(', ');
  const catMB = f1(t.catBytes / 1e6);
  const loop = t.agentLoop;
  return `| measure | direct: node-pty on \`tmux attach\`, in the bench process | pocketmux: \`/api/terminal\` (WebSocket) | wetty 3.2.0 (socket.io) | pocketmux ÷ direct | pocketmux ÷ wetty | goal |
| --- | --- | --- | --- | --- | --- | --- |
| random-file \`cat\`, ${catMB} MB of base64 in a ${CAT.COLS}×${CAT.ROWS} pane, median of ${CAT.ROUNDS} | ${f1(direct.catMBps)} MB/s | **${f1(pocketmux.catMBps)} MB/s** | ${f1(wetty.catMBps)} MB/s | **${f2(r.catVsDirect)}** (rounds: ${each(t.catPairs.direct)}) | **${f2(r.catVsWetty)}** (rounds: ${each(t.catPairs.wetty)}) | ≥ ${GOALS.catVsDirect} × direct: ${met(r.catVsDirect >= GOALS.catVsDirect)}; ≥ ${GOALS.catVsWetty} × wetty: ${met(r.catVsWetty >= GOALS.catVsWetty)} |
| full-width \`seq\` lines, ${f1(FLOOD_BYTES / 1e6)} MB in a ${FLOOD.COLS}×${FLOOD.ROWS} pane, median of ${FLOOD.ROUNDS} | ${f1(direct.floodMBps)} MB/s | **${f1(pocketmux.floodMBps)} MB/s** | ${f1(wetty.floodMBps)} MB/s | **${f2(r.floodVsDirect)}** (rounds: ${each(t.floodPairs.direct)}) | ${f2(r.floodVsWetty)} (rounds: ${each(t.floodPairs.wetty)}) | ≥ ${GOALS.floodVsDirect} × direct: ${met(r.floodVsDirect >= GOALS.floodVsDirect)} |
| bytes tmux forwarded during the flood, median | ${f1(direct.floodWireMBps)} MB/s | ${f1(pocketmux.floodWireMBps)} MB/s | ${f1(wetty.floodWireMBps)} MB/s | | | |
| keystroke echo p50, ${ECHO.KEYS} keys | ${f2(direct.echoP50)} ms | **${f2(pocketmux.echoP50)} ms** | ${f2(wetty.echoP50)} ms | | ${f2(r.echoP50VsWetty)} | ≤ ${GOALS.echoP50Ms} ms: ${met(pocketmux.echoP50 <= GOALS.echoP50Ms)} |
| keystroke echo p99, ${ECHO.KEYS} keys | ${f2(direct.echoP99)} ms | **${f2(pocketmux.echoP99)} ms** | ${f2(wetty.echoP99)} ms | **${f2(r.echoP99VsDirect)}** | **${f2(r.echoP99VsWetty)}** | ≤ ${GOALS.echoP99VsDirect} × direct: ${met(r.echoP99VsDirect <= GOALS.echoP99VsDirect)}; ≤ ${GOALS.echoP99VsWetty} × wetty: ${met(r.echoP99VsWetty <= GOALS.echoP99VsWetty)} |
| the agent's event-loop delay in the ${loop?.seconds ?? 0} seconds of pocketmux's echo batches: worst second's p99 / longest; seconds with a delay over 5 ms; V8's longest collection there, full collections | | ${loop ? `${f2(loop.worstP99)} / **${f2(loop.max)} ms**; ${loop.secondsOver5Ms}; ${f2(loop.gcLongest)} ms, ${loop.majorGcs} full` : 'not measured'} | | | | |`;
}

export function terminalSection(t: TerminalFigures, run: RunInfo): string {
  return `## Terminal

From one run of \`${run.command}\` on ${run.date}, ${run.cores} cores (${run.cpu}), Node ${run.node}${run.load === undefined ? '' : `, load average ${run.load.toFixed(1)} as it ended`}.

### An idle machine

${terminalTable(t.idle)}

### A busy machine: ${t.busyProcesses} processes each spinning a core, as working Claude sessions do

${terminalTable(t.busy)}

The ratios are of throughput (the other path's time ÷ pocketmux's, per round) and of echo time
(pocketmux's ÷ the other path's): a throughput ratio above 1 and an echo ratio below 1 favour
pocketmux.

How it is measured:

- **Three paths, one tmux server**: each path reads its own session of the agent's tmux
  server, with the agent's config, in a pane of the same size. *Direct* is node-pty running
  \`tmux attach\` in the bench process, no agent and no WebSocket: the floor. *pocketmux* is a
  client of the agent's \`/api/terminal\`, as the app's. *wetty* is wetty 3.2.0 (a dev
  dependency) started as its CLI is, with \`--command\` running the same \`tmux attach\`, and a
  socket.io client (socket.io-client 4.8.3, WebSocket transport) that sends its terminal size
  on connect and acknowledges every 256 KiB, as wetty's page does. Rounds take the paths in
  turn, the order rotating every round, so a noisy moment lands on all of them.
- **Idle and busy**: the whole set runs twice, first on the machine as it is, then with
  ${t.busyProcesses} Node processes beside it that each spin a core at normal priority
  (\`tests/bench/busy.ts\`), as busy Claude sessions do; pocketmux lives on such a machine.
- **Random-file \`cat\`**: ${CAT.ROUNDS} rounds; a file of random bytes as base64 (lines of 76)
  is \`cat\` in the pane, then a marker is printed. Time runs from sending the command to the
  marker reaching the client.
- **Full-width lines**: ${FLOOD.ROUNDS} rounds; \`seq -f '%0${FLOOD.COLS - 2}.0f' 1 ${FLOOD.LINES}\` prints
  ${f1(FLOOD_BYTES / 1e6)} MB, then a marker, timed the same way. tmux is a terminal, not a pipe:
  when its reader lags it skips frames and repaints, so how many bytes it forwards varies from
  run to run (third row); the time for the program's output to get through is what matters.
- **Keystroke echo**: \`cat\` runs in the pane; one key is sent (alternately \`a\` and
  backspace, so the line never grows), and the time runs until the first output comes back.
  Keys go one at a time, ${ECHO.GAP_MS} ms apart, in ${ECHO.BATCHES} batches per path taken in turn,
  each after ${ECHO.WARMUP} warm-up keys. wetty holds output for 2 ms before sending it
  (its \`tinybuffer\`), which its echo shows.
- **The agent's event loop**: the agent runs with \`POCKETMUX_MEASURE_LOOP_DELAY=1\`, which
  samples how late a timer due every millisecond runs and keeps each second's p50, p99 and
  longest, with V8's collections in that second (\`GET /api/terminals\`); the row takes the
  seconds that overlap pocketmux's echo batches. A pause there is a pause in every keystroke
  typed at that moment; a collection as long as it says whose pause it was.

The agent sends a pty read at once when nothing is in flight on that terminal's socket; reads
that come while a frame is in flight are gathered and sent as one frame when its write
callback comes back. In a flood (reads under 1 ms apart that brought 4 KB) it stops reading
for 2 ms and sends what the kernel kept meanwhile as one frame; then tmux, finding its reader
behind, drops frames and redraws on a 100 ms timer, which is why pocketmux's path forwards fewer
bytes in the third row. Until the flood has been quiet for 150 ms, or a key is typed, every
read starts a hold of 8 ms, however small (tmux, drawing for a reader behind it, sends a few
bytes at a time); whenever it has been quiet for 15 ms, the agent has tmux redraw its client at
once (\`refresh-client\`), so the end of the output does not wait for that timer. A keystroke's
echo is never held.`;
}

/** `doc` with its header and its terminal section replaced, the other sections as they were. */
export function withSection(doc: string, header: string, terminal: string): string {
  const firstSection = doc.indexOf('\n## ');
  const rest = firstSection >= 0 ? doc.slice(firstSection + 1) : '';
  const start = rest.indexOf('## Terminal\n');
  let body: string;
  if (start < 0) {
    body = `${terminal}\n\n${rest}`;
  } else {
    const next = rest.indexOf('\n## ', start + 1);
    body = `${rest.slice(0, start)}${terminal}\n${next >= 0 ? `\n${rest.slice(next + 1)}` : ''}`;
  }
  return `# Benchmarks\n\n${header}\n\n${body}`;
}

/**
 * `doc` with the section under `## <heading>` replaced by `section` (which starts with that
 * heading), or with `section` added at the end when there is none; the rest as it was.
 */
export function withNamedSection(doc: string, heading: string, section: string): string {
  const marker = `\n## ${heading}\n`;
  const start = doc.indexOf(marker);
  if (start < 0) return `${doc.trimEnd()}\n\n${section}\n`;
  const next = doc.indexOf('\n## ', start + marker.length - 1);
  return `${doc.slice(0, start + 1)}${section}\n${next >= 0 ? doc.slice(next) : ''}`;
}

/** The section under `## <heading>` in `doc`, heading included, or undefined when there is none. */
export function namedSection(doc: string, heading: string): string | undefined {
  const marker = `\n## ${heading}\n`;
  const start = doc.indexOf(marker);
  if (start < 0) return undefined;
  const next = doc.indexOf('\n## ', start + marker.length - 1);
  return doc.slice(start + 1, next >= 0 ? next : undefined).trimEnd();
}

/** Every number of a record by its path (`terminal.paths.pocketmux.catMBps`); per-round lists are left out. */
function flatten(value: unknown, prefix: string, out: Map<string, number>): void {
  if (typeof value === 'number') out.set(prefix, value);
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
}

/** One line per figure: its old and new value and the change, then figures only one side has. */
export function compareFigures(old: BenchRecord, current: BenchRecord): string {
  const figures = (r: BenchRecord) => {
    const out = new Map<string, number>();
    for (const [name, section] of Object.entries(r.sections)) flatten(section.figures, name, out);
    return out;
  };
  const a = figures(old);
  const b = figures(current);
  const lines: string[] = [];
  for (const [key, now] of b) {
    const was = a.get(key);
    if (was === undefined) continue;
    const change = was === 0 ? '' : ` (${now >= was ? '+' : '−'}${Math.abs(((now - was) / was) * 100).toFixed(1)}%)`;
    lines.push(`${key}: ${+was.toFixed(3)} → ${+now.toFixed(3)}${change}`);
  }
  const onlyNew = [...b.keys()].filter((k) => !a.has(k));
  const onlyOld = [...a.keys()].filter((k) => !b.has(k));
  if (onlyNew.length) lines.push(`new, not in the earlier file: ${onlyNew.join(', ')}`);
  if (onlyOld.length) lines.push(`in the earlier file only: ${onlyOld.join(', ')}`);
  return lines.join('\n');
}
