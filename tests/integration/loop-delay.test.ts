/**
 * The agent's event-loop delay, which the benchmarks read beside a keystroke's echo: recorded
 * second by second only when asked (`POCKETMUX_MEASURE_LOOP_DELAY=1`), and reported by
 * `GET /api/terminals`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { TerminalsResponse } from '../../protocol/api.js';
import { cleanupAgents, startAgent } from '../support/agent.js';
import { api, claim } from '../support/client.js';
import { eventually } from '../support/eventually.js';

afterAll(cleanupAgents);

describe("the agent's event-loop delay", () => {
  it('is reported second by second when the agent measures it', async () => {
    const agent = await startAgent({ env: { POCKETMUX_MEASURE_LOOP_DELAY: '1' } });
    const session = await claim(agent);
    const startedAt = Date.now();
    const seconds = await eventually(async () => {
      const { status, body } = await api<TerminalsResponse>(session, 'GET', '/api/terminals');
      expect(status).toBe(200);
      return body.loopDelay !== null && body.loopDelay.length >= 2 ? body.loopDelay : null;
    }, 10_000, 'two seconds of loop delay');
    for (const s of seconds) {
      expect(s.samples).toBeGreaterThan(0);
      expect(s.p50).toBeLessThanOrEqual(s.p99);
      expect(s.p99).toBeLessThanOrEqual(s.max);
    }
    expect(seconds.at(-1)?.at).toBeGreaterThan(startedAt);
    expect((seconds[1]?.at ?? 0) - (seconds[0]?.at ?? 0)).toBeGreaterThan(0);
  });

  it('is not measured, and reported as null, by default', async () => {
    const agent = await startAgent();
    const session = await claim(agent);
    const { status, body } = await api<TerminalsResponse>(session, 'GET', '/api/terminals');
    expect(status).toBe(200);
    expect(body.loopDelay).toBeNull();
  });
});
