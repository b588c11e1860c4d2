import { describe, expect, it } from 'vitest';
import { PROBE_SCRIPT, promptScript } from '../../bench/browser-probe.js';
import {
  aboveFloor,
  BROWSER_HEADING,
  type BrowserBenchResult,
  browserFigures,
  browserSection,
  type FloodRun,
  frameDrops,
  floorFigures,
  frameInterval,
  goalsMet,
  goalUnderFloor,
  type PageSamples,
  pageFigures,
  type ProfileResult,
  ratios,
} from '../../bench/browser-figures.js';
import { namedSection, withNamedSection } from '../../bench/report.js';

const noDrops = { gaps: 0, dropped: 0, missedMs: 0, longestGapMs: 16 };
const floodOf = (ms: number, longestTaskMs = 0, dropped = 0): FloodRun => ({ ms, longestTaskMs, longTasks: longestTaskMs ? 1 : 0, frameMs: 16, drops: { ...noDrops, dropped }, received: ms * 1000, messages: ms });

/** 1, 2, …, n ms: the p50 of 1..100 is 50, its p99 is 99. */
const upTo = (n: number, scale = 1) => Array.from({ length: n }, (_, i) => (i + 1) * scale);

function samples(scale: number, floods: number[], longestTaskMs = 0): PageSamples {
  return {
    echo: upTo(100, scale),
    echoFrame: upTo(100, scale / 2),
    drawnLocally: 60,
    floods: floods.map((ms) => floodOf(ms, longestTaskMs, 3)),
    colds: [
      { chunkMs: 100 * scale, promptMs: 300 * scale },
      { chunkMs: null, promptMs: 500 * scale },
      { chunkMs: 200 * scale, promptMs: 400 * scale },
    ],
  };
}

describe('frames', () => {
  it('takes the median gap between frames as the interval', () => {
    expect(frameInterval([0, 16, 33, 50, 100])).toBe(17);
  });

  it('counts a gap over one and a half frames as frames dropped, and only between the two times', () => {
    const frames = [0, 16, 32, 48, 100, 116, 132, 182, 198, 300];
    // 48 → 100: 52 ms, 2 frames left out; 132 → 182: 50 ms, 2; 198 → 300 lies after `to`.
    const drops = frameDrops(frames, 16, 40, 200);
    expect(drops.gaps).toBe(2);
    expect(drops.dropped).toBe(2 + 2);
    expect(drops.missedMs).toBe(52 - 16 + (50 - 16));
    expect(drops.longestGapMs).toBe(52);
  });

  it('counts nothing for a steady page, and a gap of just over the limit as one frame dropped', () => {
    expect(frameDrops(upTo(20, 16), 16)).toEqual({ gaps: 0, dropped: 0, missedMs: 0, longestGapMs: 16 });
    expect(frameDrops([0, 25], 16).dropped).toBe(1);
    expect(frameDrops([0, 24], 16).gaps).toBe(0);
  });
});

describe('page figures and ratios', () => {
  it('gives the percentiles of the keys, the median flood and cold start, and the longest task of all floods', () => {
    const f = pageFigures(samples(1, [3000, 1000, 2000], 80));
    expect([f.echoP50, f.echoP99, f.keys]).toEqual([50, 99, 100]);
    expect([f.echoFrameP50, f.echoFrameP99]).toEqual([25, 49.5]);
    expect(f.keysDrawnLocally).toBe(60);
    expect(f.floodMs).toBe(2000);
    expect(f.longestTaskMs).toBe(80);
    expect(f.droppedFrames).toBe(3);
    expect(f.floodReceived).toBe(2_000_000);
    expect(f.coldPromptMs).toBe(400);
    // A cold start whose script was not seen is left out of that median.
    expect(f.coldChunkMs).toBe(100);
  });

  it('says no long task as 0', () => {
    expect(pageFigures(samples(1, [1000])).longestTaskMs).toBe(0);
  });

  it('divides pocketmux by wetty, the flood round by round', () => {
    const r = ratios(samples(1, [1000, 900, 3000]), samples(2, [2000, 1000, 3000]));
    expect(r.echoP50).toBe(0.5);
    expect(r.echoP99).toBe(0.5);
    expect(r.floodRounds).toEqual([0.5, 0.9, 1]);
    expect(r.flood).toBe(0.9);
    expect(r.coldPrompt).toBe(0.5);
  });

  it('holds the goals of issue 29: half of wetty for the keys, 0.9 for the flood, 50 ms a task on the desktop only', () => {
    const met = ratios(samples(1, [900]), samples(2, [1000]));
    expect(goalsMet('desktop', met, pageFigures(samples(1, [900], 50)))).toEqual({ echoP50: true, echoP99: true, flood: true, longestTask: true });
    expect(goalsMet('phone', met, pageFigures(samples(1, [900], 500))).longestTask).toBeNull();
    const missed = ratios(samples(1.5, [950]), samples(2, [1000]));
    expect(goalsMet('desktop', missed, pageFigures(samples(1.5, [950], 51)))).toEqual({ echoP50: false, echoP99: false, flood: false, longestTask: false });
  });
});

describe('the floors', () => {
  it('gives what each page adds above the frame floor at p50, and their ratio', () => {
    const frame = floorFigures(upTo(100, 0.3));
    expect([frame.p50, frame.p99, frame.keys]).toEqual([15, 29.7, 100]);
    const above = aboveFloor(50, 100, frame);
    expect(above.pocketmux).toBe(35);
    expect(above.wetty).toBe(85);
    expect(above.ratio).toBeCloseTo(35 / 85, 10);
  });

  it('gives no ratio when a page is at or under the floor', () => {
    expect(aboveFloor(50, 100, floorFigures(upTo(100, 1))).ratio).toBeNull();
  });

  it('says when half of wetty is under the frame floor, a goal no page can meet', () => {
    const wetty = pageFigures(samples(2, [1]));
    expect(goalUnderFloor(wetty, floorFigures(upTo(100, 1.1)))).toBe(true);
    expect(goalUnderFloor(wetty, floorFigures(upTo(100, 0.9)))).toBe(false);
  });
});

function profile(pm: number, wetty: number, task: number, floor = 0.3): ProfileResult {
  return {
    setup: {
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      cells: { pocketmux: '48x40', wetty: '48x40' },
      renderer: { pocketmux: 'dom', wetty: 'dom' },
      fontSize: { pocketmux: 13, wetty: 13 },
      wettyViewport: { width: 390, height: 604 },
    },
    samples: {
      idle: { pocketmux: samples(pm, [1000], task), wetty: samples(wetty, [2000]) },
      busy: { pocketmux: samples(pm * 2, [3000], task), wetty: samples(wetty * 2, [2000]) },
    },
    floors: {
      idle: { frame: upTo(100, floor), local: upTo(100, floor * 0.9) },
      busy: { frame: upTo(100, floor * 2), local: upTo(100, floor * 1.8) },
    },
    unpredicted: { idle: upTo(100, pm * 1.2), busy: upTo(100, pm * 2.4) },
    tmuxAlone: { idle: [800, 1000, 900], busy: [2000] },
  };
}

const result: BrowserBenchResult = {
  chromium: { path: 'chromium', version: '156.0', packaged: false },
  chunks: { pocketmux: 'xterm-abc.js', wetty: 'wetty.js' },
  profiles: { phone: profile(1, 2, 0), desktop: profile(1, 4, 120, 2.5) },
  seconds: 540,
};

describe('the section', () => {
  const text = browserSection(result, 'From one run.');

  it('starts with its heading and has a row per measure, profile and load', () => {
    expect(text.startsWith(`## ${BROWSER_HEADING}\n`)).toBe(true);
    for (const at of ['phone, idle', 'phone, busy', 'desktop, idle', 'desktop, busy']) {
      expect(text.split('\n').filter((l) => l.startsWith(`| ${at} |`))).toHaveLength(7);
    }
  });

  it('puts each ratio beside its goal, met or not', () => {
    const row = (at: string, measure: string) => text.split('\n').find((l) => l.startsWith(`| ${at} | ${measure}`)) ?? '';
    expect(row('phone, idle', 'key')).toContain('**0.50 / 0.50** | ≤ 0.5 / ≤ 0.5: met / met');
    expect(row('desktop, idle', 'key')).toContain('**0.25 / 0.25**');
    expect(row('phone, idle', '20 MB')).toContain('**0.50** (rounds: 0.50) | ≤ 0.9: met');
    expect(row('phone, busy', '20 MB')).toContain('**1.50** (rounds: 1.50) | ≤ 0.9: **not met**');
    // pocketmux's flood 1000 ms, wetty's 2000, tmux alone 900 (the median of three).
    expect(row('phone, idle', 'the same in tmux')).toContain('(Enter → `cat` done: 900 ms, median of 3): each page ÷ it | **1.11** | 2.22 |');
    expect(row('desktop, idle', 'during')).toContain('**120 ms**');
    expect(row('desktop, idle', 'during')).toContain('longest ≤ 50 ms: **not met**');
    expect(row('phone, idle', 'during')).toContain('**none ≥ 50 ms**; 3 frames, 0 ms; 1.0 MB in 1000 | none ≥ 50 ms; 3 frames, 0 ms; 2.0 MB in 2000 |');
    expect(row('phone, idle', 'during')).not.toContain('longest ≤');
  });

  it('gives the floors and each page above the frame floor, and says when the goal lies under it', () => {
    const row = (at: string, measure: string) => text.split('\n').find((l) => l.startsWith(`| ${at} | ${measure}`)) ?? '';
    expect(row('phone, idle', 'the same with local echo off, p50 above')).toContain('next frame 15.0 / 29.7 ms');
    // Local echo off: p50 60 ms, 45 above the floor; wetty's 100, 85 above it.
    expect(row('phone, idle', 'the same with local echo off, p50 above')).toContain('| **45.0 ms** | 85.0 ms | **0.53** |');
    expect(row('phone, idle', 'the same, pocketmux with its local echo off')).toContain('| 60.0 / 118.8 ms | 100.0 / 198.0 ms | 0.60 / 0.60 |');
    expect(row('phone, idle', 'key → echo painted')).not.toContain('under the frame floor');
    // desktop, idle: wetty's p50 200 ms, its half 100 ms, the frame floor's p50 125 ms.
    expect(row('desktop, idle', 'key → echo painted')).toContain("met (0.5 of wetty's is 100.0 ms, under the frame floor)");
    expect(row('desktop, idle', 'the same with local echo off, p50 above')).toContain('| **-65.0 ms** |');
  });

  it('says which Chromium ran, the renderers, the cells and what was done to make them equal, and how it is measured', () => {
    expect(text).toContain("Chromium 156.0 (the system's)");
    expect(text).toContain('tmux windows 48x40 (pocketmux) and 48x40 (wetty) cells; renderers dom / dom');
    expect(text).toContain("wetty's page in 390×604");
    expect(text).toContain('How it is measured:');
    expect(text).toContain('`xterm-abc.js`');
  });

  it('replaces its own section of the document and no other', () => {
    const doc = '# Benchmarks\n\nheader\n\n## Terminal\n\nwire\n\n## In the browser\n\nold\n\n## Dialogs on screen\n\ncards\n';
    const next = withNamedSection(doc, BROWSER_HEADING, text);
    expect(next).toContain('## Terminal\n\nwire');
    expect(next).toContain('## Dialogs on screen\n\ncards');
    expect(next).not.toContain('\nold\n');
    expect(namedSection(next, BROWSER_HEADING)).toBe(text);
    expect(namedSection(doc, 'Assets')).toBeUndefined();
  });

  it('keeps figures, ratios and goals in the JSON, not every sample', () => {
    const json = browserFigures(result) as { profiles: Record<string, Record<string, { pocketmux: { echoP50: number }; ratios: { echoP50: number }; goals: { echoP50: boolean } }>> };
    const desktopIdle = json.profiles.desktop?.idle;
    expect(desktopIdle?.pocketmux.echoP50).toBe(50);
    expect(desktopIdle?.ratios.echoP50).toBe(0.25);
    expect(desktopIdle?.goals.echoP50).toBe(true);
    expect(JSON.stringify(json)).not.toContain('"echo":[');
  });
});

describe('the probe', () => {
  it('is a script a page can run as it is', () => {
    expect(() => new Function(PROBE_SCRIPT)).not.toThrow();
    expect(promptScript('bash-5.2# "x"')).toBe('window.__pmBenchPrompt = "bash-5.2# \\"x\\"";');
  });
});
