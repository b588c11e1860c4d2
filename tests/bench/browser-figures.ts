/**
 * The browser benchmark's figures from its samples, and the section of docs/benchmarks.md
 * they make: pure, so the arithmetic and the text are tested apart from any browser.
 */
import { median, quantile } from '../support/stats.js';
import { FLOORS, type FloorName } from './browser-floor.js';

export type PageName = 'pocketmux' | 'wetty';
export const PAGES: readonly PageName[] = ['pocketmux', 'wetty'];
export type ProfileName = 'phone' | 'desktop';
export type Load = 'idle' | 'busy';
export const LOADS: readonly Load[] = ['idle', 'busy'];

export const BROWSER_BENCH = {
  /** Counted keys per page, profile and load, in batches that alternate the pages. */
  KEYS: 500,
  /**
   * Counted keys of the pages that only tell where the time goes (pocketmux's with its local
   * echo off, and the floors), in the same batches.
   */
  DIAGNOSTIC_KEYS: 200,
  BATCHES: 10,
  /** Keys typed and not counted at the start of each batch. */
  WARMUP: 10,
  /**
   * Between a key's echo and the next key: at least GAP_MS, plus up to a frame more, at random.
   * A person's pace, and a fast one: with the probe's own calls, 70 to 90 ms from key to key,
   * 11 to 14 keys a second, as a typist of over 120 words a minute. Keys 5 to 22 ms after the
   * last echo (until 2026-12-03) came faster than a key held down repeats: each found the frame
   * clock still running from the key before, so the figure measured how many frames a page
   * draws per key rather than how soon it shows one. A fixed gap locks the keys to the frame
   * clock (each key then lands at the same point of a frame) and the figure measures that
   * point, not the page: spread over a frame, keys land at every point of it, as a person's do.
   */
  GAP_MS: 60,
  GAP_SPREAD_MS: 17,
  /** Floods and cold starts per page, profile and load, alternating the pages. */
  FLOOD_ROUNDS: 5,
  COLD_ROUNDS: 3,
  /** The flood's file, as the terminal part writes it: random base64 in lines of 76. */
  FLOOD_BYTES: 20_000_000,
} as const;

/** A frame gap longer than this many frames counts as frames dropped. */
export const DROPPED_GAP_FRAMES = 1.5;

export const BROWSER_GOALS = { echoP50VsWetty: 0.5, echoP99VsWetty: 0.5, floodVsWetty: 0.9, longestTaskMs: 50 } as const;

/** The usual time between two frames: the median gap between requestAnimationFrame times. */
export function frameInterval(frames: number[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < frames.length; i++) gaps.push((frames[i] as number) - (frames[i - 1] as number));
  return median(gaps);
}

export interface FrameDrops {
  /** Gaps between frames longer than DROPPED_GAP_FRAMES frames. */
  gaps: number;
  /** The frames those gaps left out: each gap's length in frames, rounded, less the one drawn. */
  dropped: number;
  /** The time those gaps took beyond one frame each. */
  missedMs: number;
  longestGapMs: number;
}

/** The frames dropped between `from` and `to`, from requestAnimationFrame times and the frame interval. */
export function frameDrops(frames: number[], frameMs: number, from = Number.NEGATIVE_INFINITY, to = Number.POSITIVE_INFINITY): FrameDrops {
  const out: FrameDrops = { gaps: 0, dropped: 0, missedMs: 0, longestGapMs: 0 };
  // The gap that holds `from` counts: a frame due then was late as much as any other.
  let previous: number | undefined;
  for (const t of frames) {
    if (t > to) break;
    if (previous !== undefined && t > from) {
      const gap = t - previous;
      out.longestGapMs = Math.max(out.longestGapMs, gap);
      if (gap > DROPPED_GAP_FRAMES * frameMs) {
        out.gaps++;
        out.dropped += Math.max(1, Math.round(gap / frameMs) - 1);
        out.missedMs += gap - frameMs;
      }
    }
    previous = t;
  }
  return out;
}

/** One flood on one page, as the probe saw it. */
export interface FloodRun {
  /** Enter → the marker painted. */
  ms: number;
  /** The longest task during it (0: none of 50 ms or more, the least the browser reports). */
  longestTaskMs: number;
  longTasks: number;
  frameMs: number;
  drops: FrameDrops;
  /** What the page's sockets received during it (tmux leaves out what a slow client would draw too late). */
  received: number;
  /** How many messages carried it. */
  messages: number;
}

/** One cold start: navigation → the terminal's script loaded, and → the prompt painted. */
export interface ColdRun {
  chunkMs: number | null;
  promptMs: number;
}

/** What one page went through for one profile and load. */
export interface PageSamples {
  /** keydown → echo written to the rows, every counted key. */
  echo: number[];
  /** keydown → the start of the frame that wrote it. */
  echoFrame: number[];
  /** Counted keys whose first change on screen was local echo's drawing. */
  drawnLocally: number;
  floods: FloodRun[];
  colds: ColdRun[];
}

export interface PageFigures {
  echoP50: number;
  echoP99: number;
  echoFrameP50: number;
  echoFrameP99: number;
  keys: number;
  keysDrawnLocally: number;
  floodMs: number;
  /** The longest task of any flood round. */
  longestTaskMs: number;
  /** Per flood, median over the rounds. */
  droppedFrames: number;
  missedMs: number;
  /** Per flood, median over the rounds. */
  floodReceived: number;
  /** Per flood, median over the rounds. */
  floodMessages: number;
  coldChunkMs: number | null;
  coldPromptMs: number;
}

export function pageFigures(s: PageSamples): PageFigures {
  const chunks = s.colds.map((c) => c.chunkMs).filter((x): x is number => x !== null);
  return {
    echoP50: quantile(s.echo, 0.5),
    echoP99: quantile(s.echo, 0.99),
    echoFrameP50: quantile(s.echoFrame, 0.5),
    echoFrameP99: quantile(s.echoFrame, 0.99),
    keys: s.echo.length,
    keysDrawnLocally: s.drawnLocally,
    floodMs: median(s.floods.map((f) => f.ms)),
    longestTaskMs: Math.max(0, ...s.floods.map((f) => f.longestTaskMs)),
    droppedFrames: median(s.floods.map((f) => f.drops.dropped)),
    missedMs: median(s.floods.map((f) => f.drops.missedMs)),
    floodReceived: median(s.floods.map((f) => f.received)),
    floodMessages: median(s.floods.map((f) => f.messages)),
    coldChunkMs: chunks.length ? median(chunks) : null,
    coldPromptMs: median(s.colds.map((c) => c.promptMs)),
  };
}

export interface Ratios {
  echoP50: number;
  echoP99: number;
  /** Median of per-round ratios: each pocketmux flood beside the wetty flood of its round. */
  flood: number;
  floodRounds: number[];
  coldPrompt: number;
}

/** pocketmux ÷ wetty: below 1 favours pocketmux. */
export function ratios(pm: PageSamples, wetty: PageSamples): Ratios {
  const p = pageFigures(pm);
  const w = pageFigures(wetty);
  const floodRounds = pm.floods.map((f, i) => f.ms / (wetty.floods[i]?.ms ?? Number.NaN));
  return { echoP50: p.echoP50 / w.echoP50, echoP99: p.echoP99 / w.echoP99, flood: median(floodRounds), floodRounds, coldPrompt: p.coldPromptMs / w.coldPromptMs };
}

export interface Goals {
  echoP50: boolean;
  echoP99: boolean;
  flood: boolean;
  /** Only the desktop has this goal. */
  longestTask: boolean | null;
}

export function goalsMet(profile: ProfileName, r: Ratios, pm: PageFigures): Goals {
  return {
    echoP50: r.echoP50 <= BROWSER_GOALS.echoP50VsWetty,
    echoP99: r.echoP99 <= BROWSER_GOALS.echoP99VsWetty,
    flood: r.flood <= BROWSER_GOALS.floodVsWetty,
    longestTask: profile === 'desktop' ? pm.longestTaskMs <= BROWSER_GOALS.longestTaskMs : null,
  };
}

/** How a profile's pages were set up, as the run found them. */
export interface ProfileSetup {
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  /** The window size tmux gave each page's session, in cells. */
  cells: Record<PageName, string>;
  renderer: Record<PageName, string>;
  fontSize: Record<PageName, number>;
  /** wetty's page's viewport, changed from the profile's so that its fit gives pocketmux's cells. */
  wettyViewport: { width: number; height: number };
}

export interface ProfileResult {
  setup: ProfileSetup;
  samples: Record<Load, Record<PageName, PageSamples>>;
  /** keydown → painted on the floor pages (browser-floor.ts), every counted key. */
  floors: Record<Load, Record<FloorName, number[]>>;
  /** keydown → echo painted on pocketmux's page with its local echo off, every counted key. */
  unpredicted: Record<Load, number[]>;
  /** The flood in a pane no page is attached to, a round each: Enter → `cat` done. */
  tmuxAlone: Record<Load, number[]>;
}

export interface FloorFigures {
  p50: number;
  p99: number;
  keys: number;
}

export const floorFigures = (echo: number[]): FloorFigures => ({ p50: quantile(echo, 0.5), p99: quantile(echo, 0.99), keys: echo.length });

/**
 * Key → echo above the next frame, at p50: what each terminal's path by the network adds to the
 * least a page can show (the frame floor), and pocketmux's part of wetty's. Null where a page's
 * p50 is at or under the floor.
 */
export interface AboveFloor {
  pocketmux: number;
  wetty: number;
  ratio: number | null;
}

/** From the p50s of pocketmux's page (with its local echo off), wetty's page and the frame floor. */
export function aboveFloor(pocketmuxP50: number, wettyP50: number, frame: FloorFigures): AboveFloor {
  const p = pocketmuxP50 - frame.p50;
  const w = wettyP50 - frame.p50;
  return { pocketmux: p, wetty: w, ratio: p > 0 && w > 0 ? p / w : null };
}

/** The goal's p50 in ms lies under the frame floor: no page, not even one with no network, can meet it. */
export const goalUnderFloor = (wetty: PageFigures, frame: FloorFigures): boolean => BROWSER_GOALS.echoP50VsWetty * wetty.echoP50 < frame.p50;

export interface BrowserBenchResult {
  chromium: { path: string; version: string; packaged: boolean };
  /** The script name of each page's terminal code, as cold starts looked for it. */
  chunks: Record<PageName, string>;
  profiles: Record<ProfileName, ProfileResult>;
  seconds: number;
}

/** What the JSON keeps: the figures, ratios and goals, not every sample. */
export function browserFigures(r: BrowserBenchResult): unknown {
  const profiles: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(r.profiles) as [ProfileName, ProfileResult][]) {
    const loads: Record<string, unknown> = {};
    for (const load of LOADS) {
      const s = p.samples[load];
      const pm = pageFigures(s.pocketmux);
      const ratio = ratios(s.pocketmux, s.wetty);
      const w = pageFigures(s.wetty);
      const floors = Object.fromEntries(FLOORS.map((f) => [f, floorFigures(p.floors[load][f])])) as Record<FloorName, FloorFigures>;
      const unpredicted = floorFigures(p.unpredicted[load]);
      loads[load] = {
        pocketmux: pm,
        wetty: w,
        unpredicted,
        unpredictedVsWetty: { echoP50: unpredicted.p50 / w.echoP50, echoP99: unpredicted.p99 / w.echoP99 },
        floodTmuxAloneMs: median(p.tmuxAlone[load]),
        floors,
        unpredictedAboveFrameFloor: aboveFloor(unpredicted.p50, w.echoP50, floors.frame),
        ratios: ratio,
        goals: goalsMet(name, ratio, pm),
        echoP50GoalUnderFloor: goalUnderFloor(w, floors.frame),
      };
    }
    profiles[name] = { setup: p.setup, ...loads };
  }
  return { chromium: r.chromium, chunks: r.chunks, seconds: r.seconds, profiles };
}

export const BROWSER_HEADING = 'In the browser';

const f0 = (x: number) => x.toFixed(0);
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);
const met = (ok: boolean) => (ok ? 'met' : '**not met**');
const task = (ms: number) => (ms === 0 ? 'none ≥ 50 ms' : `${f0(ms)} ms`);
const mb = (bytes: number) => `${f1(bytes / 1e6)} MB`;

function profileRows(name: ProfileName, p: ProfileResult): string[] {
  const rows: string[] = [];
  for (const load of LOADS) {
    const s = p.samples[load];
    const pm = pageFigures(s.pocketmux);
    const w = pageFigures(s.wetty);
    const r = ratios(s.pocketmux, s.wetty);
    const g = goalsMet(name, r, pm);
    const frame = floorFigures(p.floors[load].frame);
    const local = floorFigures(p.floors[load].local);
    const plain = floorFigures(p.unpredicted[load]);
    const alone = median(p.tmuxAlone[load]);
    const above = aboveFloor(plain.p50, w.echoP50, frame);
    const underFloor = goalUnderFloor(w, frame) ? ` (${BROWSER_GOALS.echoP50VsWetty} of wetty's is ${f1(BROWSER_GOALS.echoP50VsWetty * w.echoP50)} ms, under the frame floor)` : '';
    const at = `${name}, ${load}`;
    rows.push(
      `| ${at} | key → echo painted, p50 / p99 of ${pm.keys} (pocketmux: ${pm.keysDrawnLocally} drawn by its local echo) | **${f1(pm.echoP50)} / ${f1(pm.echoP99)} ms** | ${f1(w.echoP50)} / ${f1(w.echoP99)} ms | **${f2(r.echoP50)} / ${f2(r.echoP99)}** | ≤ ${BROWSER_GOALS.echoP50VsWetty} / ≤ ${BROWSER_GOALS.echoP99VsWetty}: ${met(g.echoP50)}${underFloor} / ${met(g.echoP99)} |`,
      `| ${at} | the same, pocketmux with its local echo off (every echo by the network) | ${f1(plain.p50)} / ${f1(plain.p99)} ms | ${f1(w.echoP50)} / ${f1(w.echoP99)} ms | ${f2(plain.p50 / w.echoP50)} / ${f2(plain.p99 / w.echoP99)} | |`,
      `| ${at} | the same with local echo off, p50 above the frame floor (no network: next frame ${f1(frame.p50)} / ${f1(frame.p99)} ms; xterm.js echoing locally ${f1(local.p50)} / ${f1(local.p99)} ms, p50 / p99) | **${f1(above.pocketmux)} ms** | ${f1(above.wetty)} ms | ${above.ratio === null ? '–' : `**${f2(above.ratio)}**`} | |`,
      `| ${at} | ${f0(BROWSER_BENCH.FLOOD_BYTES / 1e6)} MB \`cat\`: Enter → end marker painted, median of ${s.pocketmux.floods.length} | **${f0(pm.floodMs)} ms** | ${f0(w.floodMs)} ms | **${f2(r.flood)}** (rounds: ${r.floodRounds.map(f2).join(', ')}) | ≤ ${BROWSER_GOALS.floodVsWetty}: ${met(g.flood)} |`,
      `| ${at} | the same in tmux with no page attached (Enter → \`cat\` done: ${f0(alone)} ms, median of ${p.tmuxAlone[load].length}): each page ÷ it | **${f2(pm.floodMs / alone)}** | ${f2(w.floodMs / alone)} | | |`,
      `| ${at} | during the flood: longest task; frames dropped; received by the page, in how many messages (median a flood) | **${task(pm.longestTaskMs)}**; ${f0(pm.droppedFrames)} frames, ${f0(pm.missedMs)} ms; ${mb(pm.floodReceived)} in ${f0(pm.floodMessages)} | ${task(w.longestTaskMs)}; ${f0(w.droppedFrames)} frames, ${f0(w.missedMs)} ms; ${mb(w.floodReceived)} in ${f0(w.floodMessages)} | | ${g.longestTask === null ? '' : `longest ≤ ${BROWSER_GOALS.longestTaskMs} ms: ${met(g.longestTask)}`} |`,
      `| ${at} | cold start: terminal script loaded / prompt painted, median of ${s.pocketmux.colds.length} | ${pm.coldChunkMs === null ? '–' : f0(pm.coldChunkMs)} / **${f0(pm.coldPromptMs)} ms** | ${w.coldChunkMs === null ? '–' : f0(w.coldChunkMs)} / ${f0(w.coldPromptMs)} ms | ${f2(r.coldPrompt)} | |`,
    );
  }
  return rows;
}

function setupLine(name: ProfileName, p: ProfileResult): string {
  const s = p.setup;
  const same = s.wettyViewport.width === s.viewport.width && s.wettyViewport.height === s.viewport.height;
  return `- **${name}**: ${s.viewport.width}×${s.viewport.height} CSS pixels at ${s.deviceScaleFactor}×; tmux windows ${s.cells.pocketmux} (pocketmux) and ${s.cells.wetty} (wetty) cells; renderers ${s.renderer.pocketmux} / ${s.renderer.wetty}; font ${s.fontSize.pocketmux} / ${s.fontSize.wetty} px; ${same ? 'both pages in the same viewport' : `wetty's page in ${s.wettyViewport.width}×${s.wettyViewport.height} so that its fit gives the same cells (its page has no header or key bar)`}.`;
}

export function browserSection(r: BrowserBenchResult, runLine: string): string {
  const names = Object.keys(r.profiles) as ProfileName[];
  return `## ${BROWSER_HEADING}

${runLine} Chromium ${r.chromium.version} (${r.chromium.packaged ? "the packaged headless shell of @sparticuz/chromium: the system has none" : "the system's"}), headless, no GPU; the run took ${f0(r.seconds / 60)} minutes.

| profile, machine | measure | pocketmux (\`/t/<id>\`) | wetty 3.2.0 (its page, \`/\`) | pocketmux ÷ wetty | goal |
| --- | --- | --- | --- | --- | --- |
${names.flatMap((n) => profileRows(n, r.profiles[n] as ProfileResult)).join('\n')}

Below 1, a ratio favours pocketmux. "Busy": two processes spinning a core each ran beside
the measurement, as two working Claude sessions do (on this machine, every core).

${names.map((n) => setupLine(n, r.profiles[n] as ProfileResult)).join('\n')}

How it is measured: Chromium through Playwright, two pages on one agent's tmux server, each
on a shell tab of its own: pocketmux's own terminal (a paired browser context, \`/t/<id>\`) and
wetty's own page, whose server runs \`tmux attach\` on that tab's session. Both pages get the
same probe before their scripts run (\`tests/bench/browser-probe.ts\`), which times everything
inside the page: start is the keydown event's \`timeStamp\`; end is the callback of a
MutationObserver on xterm's screen (its \`.xterm-rows\`, and the layer over them where
pocketmux draws a key before its echo comes back, \`[data-local-echo]\`, as a person sees it), which
runs in the frame in which xterm's DOM renderer (or the layer, also drawn from
requestAnimationFrame) wrote them (that frame's start time is kept in the JSON, but Chromium dates a frame
from its begin-frame signal, often before the keydown it then shows, so it is not the figure). Without a GPU both
pages draw with xterm's DOM renderer (both use xterm.js 6.0.0). Keys: \`exec cat\` in the pane,
\`a\` and Backspace in turn so the line never grows, each ${BROWSER_BENCH.GAP_MS} to ${BROWSER_BENCH.GAP_MS + BROWSER_BENCH.GAP_SPREAD_MS} ms (at random, so
that keys land at every point of a frame) after the previous echo, a fast typist's pace,
${BROWSER_BENCH.KEYS} counted a page in ${BROWSER_BENCH.BATCHES} batches that alternate the pages (${BROWSER_BENCH.DIAGNOSTIC_KEYS} on the pages that only tell
where the time goes: pocketmux's with its local echo off and the floors),
the order turning, each after ${BROWSER_BENCH.WARMUP} warm-up keys. pocketmux's page runs as
shipped, its local echo on (\`pwa/terminal/local-echo.ts\`: a key is drawn at once once the
line's echo has been seen, and checked against the echo that follows); in the same batches a
third page, pocketmux's with its local echo turned off in its storage as Settings does, on a tab of
its own, gives the network's path. The floors
(\`tests/bench/browser-floor.ts\`) are two pages with no network, typed into in the same batches
with the same probe: one paints the key itself in the next frame (a row's text written from
requestAnimationFrame, as xterm's DOM renderer does: the least any page can show here), one is
xterm.js 6.0.0 echoing each key itself (the most a page predicting its echo could reach); a
page's p50 less the frame floor's is what its own path adds. Flood: a
${f0(BROWSER_BENCH.FLOOD_BYTES / 1e6)} MB file of random base64 lines \`cat\` in the pane, then
\`echo END-$((n+1))\`, from Enter to that marker on the rows; meanwhile PerformanceObserver
\`longtask\` gives the longest task (the browser reports none under 50 ms), and the
requestAnimationFrame times the dropped frames (a gap over ${DROPPED_GAP_FRAMES} frames drops its
length in frames less one; the frame is the median gap before Enter); what the page received, and in how many messages, is
counted on its sockets (wetty's text messages in characters): tmux leaves out, for a client that
falls behind, what it would draw too late, so a page can end a flood having received less than
the file. In the same rounds the flood runs in a third shell tab no page is attached to, from
Enter (sent by tmux) to the shell signalling through \`tmux wait-for\` that \`cat\` is done: what
tmux takes to read the file into a pane whatever draws it, the floor of both pages' floods.
Cold start: a fresh browser
context (for pocketmux paired first, then its HTTP cache, Cache Storage and service worker
cleared) opens the page; the times run from navigation to the terminal's script loaded
(resource timing of \`${r.chunks.pocketmux}\` and of \`${r.chunks.wetty}\`) and to the shell's prompt on the rows.`;
}
