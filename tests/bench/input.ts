/**
 * Input path figures: text typed through `POST /api/tabs/:id/input` (what `pocketmux tab
 * send` uses) and through the terminal's input bar (web stdin, which leaves copy-mode
 * first), one at a time and in bursts. With POCKETMUX_BENCH_BASELINE naming another build's
 * `bin/pocketmux.js`, the same rounds run against that agent too, alternating, so a change
 * is measured beside what it replaced.
 */
import { FrameType } from '../../protocol/terminal-frame.js';
import { startAgent } from '../support/agent.js';
import { api, claim, createTab, type Session, TerminalClient } from '../support/client.js';
import { quantile } from '../support/stats.js';

const SINGLE = 300;
const WARMUP = 10;
const BURST_FRAMES = 2_000;
const BURST_REQUESTS = 50;
const ROUNDS = 3;

export interface InputFigures {
  restP50: number;
  restP99: number;
  webP50: number;
  webP99: number;
  /** Median over rounds: first frame sent → last line echoed. */
  webBurstMs: number;
  restBurstMs: number;
}

export interface InputBenchResult {
  current: InputFigures;
  baseline: InputFigures | null;
  baselineBin: string | null;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A tab running `cat`, with a terminal attached to see its echo. */
class EchoTab {
  private waiter: (() => void) | null = null;
  private tail = '';
  private marker: { text: string; resolve: () => void } | null = null;

  private constructor(
    readonly session: Session,
    readonly tabId: string,
    readonly term: TerminalClient,
  ) {
    term.keepOutput = false;
    term.trackScreen = false;
    term.onOutput = (chunk) => {
      const w = this.waiter;
      this.waiter = null;
      w?.();
      if (this.marker) {
        this.tail = (this.tail + Buffer.from(chunk).toString('utf8')).slice(-4096);
        if (this.tail.includes(this.marker.text)) {
          const m = this.marker;
          this.marker = null;
          m.resolve();
        }
      }
    };
  }

  static async open(session: Session): Promise<EchoTab> {
    const tab = await createTab(session);
    const term = new TerminalClient(session, tab.id);
    await term.opened;
    const echo = new EchoTab(session, tab.id, term);
    await api(session, 'POST', `/api/tabs/${tab.id}/input`, { text: 'exec cat' });
    await sleep(500);
    return echo;
  }

  nextOutput(): Promise<void> {
    return new Promise((r) => {
      this.waiter = r;
    });
  }

  /** Resolves when `text` appears in the output; a bench must end even when it never does. */
  seen(text: string, timeoutMs = 120_000): Promise<void> {
    this.tail = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`"${text}" did not appear within ${timeoutMs} ms`)), timeoutMs);
      this.marker = {
        text,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
  }

  async restKeys(count: number): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < count + WARMUP; i++) {
      const echoed = this.nextOutput();
      const t0 = performance.now();
      await api(this.session, 'POST', `/api/tabs/${this.tabId}/input`, { text: i % 2 === 0 ? 'a' : '\x7f', enter: false });
      await echoed;
      if (i >= WARMUP) samples.push(performance.now() - t0);
    }
    return samples;
  }

  async webKeys(count: number): Promise<number[]> {
    const samples: number[] = [];
    for (let i = 0; i < count + WARMUP; i++) {
      const echoed = this.nextOutput();
      const t0 = performance.now();
      this.term.send({ type: FrameType.WebStdin, text: i % 2 === 0 ? 'a' : '\x7f' });
      await echoed;
      if (i >= WARMUP) samples.push(performance.now() - t0);
      await sleep(2);
    }
    return samples;
  }

  async webBurst(round: number): Promise<number> {
    const last = `w${round}-${BURST_FRAMES - 1}`;
    // tmux repaints rather than relays, so only the text itself is sure to pass, not the line ends.
    const done = this.seen(last);
    const t0 = performance.now();
    for (let i = 0; i < BURST_FRAMES; i++) this.term.send({ type: FrameType.WebStdin, text: `w${round}-${i}\r` });
    await done;
    return performance.now() - t0;
  }

  async restBurst(round: number): Promise<number> {
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: BURST_REQUESTS }, (_, i) => api(this.session, 'POST', `/api/tabs/${this.tabId}/input`, { text: `r${round}-${i}` })),
    );
    // Whatever order the requests landed in, a final marker typed after all of them shows they are through.
    const done = this.seen(`r${round}-end`);
    await api(this.session, 'POST', `/api/tabs/${this.tabId}/input`, { text: `r${round}-end` });
    await done;
    return performance.now() - t0;
  }

  close(): void {
    this.term.close();
  }
}

export async function inputBench(current: Session, progress: (line: string) => void): Promise<InputBenchResult> {
  const baselineBin = process.env.POCKETMUX_BENCH_BASELINE ?? null;
  const baselineAgent = baselineBin ? await startAgent({ bin: baselineBin }) : null;
  try {
    const tabs: EchoTab[] = [await EchoTab.open(current)];
    if (baselineAgent) tabs.push(await EchoTab.open(await claim(baselineAgent, 'bench input')));
    const samples = tabs.map(() => ({ rest: [] as number[], web: [] as number[], webBurst: [] as number[], restBurst: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      progress(`input round ${round + 1}/${ROUNDS}`);
      for (const [i, tab] of tabs.entries()) {
        const s = samples[i] as (typeof samples)[number];
        s.rest.push(...(await tab.restKeys(SINGLE / ROUNDS)));
        s.web.push(...(await tab.webKeys(SINGLE / ROUNDS)));
        s.webBurst.push(await tab.webBurst(round));
        s.restBurst.push(await tab.restBurst(round));
      }
    }
    for (const tab of tabs) tab.close();
    const figures = (s: (typeof samples)[number]): InputFigures => ({
      restP50: quantile(s.rest, 0.5),
      restP99: quantile(s.rest, 0.99),
      webP50: quantile(s.web, 0.5),
      webP99: quantile(s.web, 0.99),
      webBurstMs: quantile(s.webBurst, 0.5),
      restBurstMs: quantile(s.restBurst, 0.5),
    });
    return {
      current: figures(samples[0] as (typeof samples)[number]),
      baseline: samples[1] ? figures(samples[1]) : null,
      baselineBin,
    };
  } finally {
    await baselineAgent?.stop();
  }
}

export const INPUT_BENCH = { SINGLE, BURST_FRAMES, BURST_REQUESTS, ROUNDS };
