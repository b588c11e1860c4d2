/**
 * The hook load as a bench phase: 50 tabs of recorded Claude hook traffic at 1,000 events a
 * second for 60 s, two real Claude tabs beside it, eight clients on /api/status (see
 * tests/support/hook-load.ts). Its figures: the rate reached, status latency, agent memory and
 * CPU, and what the clients missed (nothing, the integration test says).
 */
import { cleanupAgents } from '../support/agent.js';
import { type HookLoadOptions, type HookLoadResult, hookLoad, startLoadAgent } from '../support/hook-load.js';

export type LoadBenchResult = HookLoadResult;

/** A fresh agent of its own, stopped (with everything the bench process started) at the end. */
export async function loadBench(options: Partial<HookLoadOptions> = {}, progress: (line: string) => void = () => undefined): Promise<LoadBenchResult> {
  const target = await startLoadAgent();
  try {
    return await hookLoad(target, options, progress);
  } finally {
    await cleanupAgents();
    await target.fake.close();
    target.claude.cleanup();
  }
}
