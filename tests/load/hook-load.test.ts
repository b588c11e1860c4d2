/**
 * Issue 15's load: 50 tabs of recorded Claude hook traffic at 1,000 events a second for a
 * minute (Claude's HTTP hooks, and hook.sh with sh and curl), two real Claude tabs taking turns
 * beside it, eight clients on /api/status. Correctness only: every client hears every event of
 * every tab once and in order, every status ends right, the agent lives. Timings are printed,
 * never asserted: CI's two cores run other test files beside this one, and a rate under 1,000
 * is reported, not failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupAgents } from '../support/agent.js';
import { describeHookLoad, hookLoad, type LoadAgent, startLoadAgent } from '../support/hook-load.js';

describe('hook load', () => {
  let target: LoadAgent;

  beforeAll(async () => {
    target = await startLoadAgent();
  });

  afterAll(async () => {
    await cleanupAgents();
    await target?.fake.close();
    target?.claude.cleanup();
  });

  it(
    '50 tabs at 1,000 hook events a second for 60 s, 8 clients: none lost, reordered or duplicated; every status right',
    async () => {
      const progress = (line: string) => process.stderr.write(`${line}\n`);
      const result = await hookLoad(target, {}, progress);
      process.stderr.write(`${describeHookLoad(result)}\n`);

      expect(result.problems).toEqual([]);
      expect(result.sent).toBe(60_000);
      for (const client of result.clients) expect(client).toEqual({ lost: 0, reordered: 0, duplicated: 0, resyncs: 0, updatesBackwards: 0 });
      expect(result.intakeOutOfOrder).toBe(0);
      expect(result.sentScript).toBeGreaterThan(0);
      expect(result.sentHttp).toBeGreaterThan(result.sentScript);
      expect(result.heldAnswered).toBe(result.heldExpected);
      expect(result.failedPosts).toBe(0);
      expect(result.claude.map((c) => c.ok)).toEqual([true, true]);
      expect(result.finalMismatches).toEqual([]);
      expect(result.agentAlive).toBe(true);
      expect(result.rate).toBeGreaterThan(0);
    },
    15 * 60_000,
  );
});
