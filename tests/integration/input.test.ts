/**
 * Input into tabs costs tmux runs: every run of the tmux binary is counted through a
 * wrapper that logs and then executes the real tmux, so the test sees what the agent does.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameType } from '../../protocol/terminal-frame.js';
import { type AgentHandle, cleanupAgents, newTestEnvironment, startAgent } from '../support/agent.js';
import { api, claim, createTab, eventually, type Session, TerminalClient } from '../support/client.js';

afterAll(cleanupAgents);

const FRAMES = 2_000;

describe('input into a tab', () => {
  let agent: AgentHandle;
  let session: Session;
  let runs: string;
  let tabId: string;
  let file: string;

  beforeAll(async () => {
    const env = newTestEnvironment();
    runs = join(env.root, 'tmux-runs.log');
    const wrapper = join(env.root, 'tmux-counting');
    writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${runs}'\nexec tmux "$@"\n`);
    chmodSync(wrapper, 0o755);
    agent = await startAgent({ reuse: env, env: { POCKETMUX_TMUX_BIN: wrapper } });
    session = await claim(agent);
    tabId = (await createTab(session)).id;
    file = join(agent.root, 'typed.txt');
    const start = await api(session, 'POST', `/api/tabs/${tabId}/input`, { text: `stty -icanon -echo && exec cat > '${file}'` });
    expect(start.status).toBe(204);
    await eventually(() => existsSync(file), 10_000, 'cat to start');
  });

  const countRuns = () => readFileSync(runs, 'utf8').split('\n').filter(Boolean).length;

  it(`types ${FRAMES} input-bar frames in order with a handful of tmux runs, not one each`, async () => {
    const term = new TerminalClient(session, tabId);
    await term.opened;
    const before = countRuns();
    const expected: string[] = [];
    for (let i = 0; i < FRAMES; i++) {
      expected.push(`line-${i}`);
      term.send({ type: FrameType.WebStdin, text: `line-${i}\r` });
    }
    const lines = await eventually(() => {
      const got = readFileSync(file, 'utf8').split('\n').filter(Boolean);
      return got.length >= FRAMES ? got : null;
    }, 30_000, `${FRAMES} lines to arrive`);
    expect(lines).toEqual(expected);
    const used = countRuns() - before;
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThan(FRAMES / 20);
    term.close();
  });

  it('types a REST request with one tmux run, and parallel requests in order with fewer', async () => {
    const before = countRuns();
    expect((await api(session, 'POST', `/api/tabs/${tabId}/input`, { text: 'single' })).status).toBe(204);
    expect(countRuns() - before).toBe(1);

    const start = countRuns();
    const texts = Array.from({ length: 50 }, (_, i) => `parallel-${i}`);
    const results = await Promise.all(texts.map((text) => api(session, 'POST', `/api/tabs/${tabId}/input`, { text })));
    expect(results.every((r) => r.status === 204)).toBe(true);
    const lines = await eventually(() => {
      const got = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('parallel-'));
      return got.length >= texts.length ? got : null;
    }, 15_000, 'the parallel lines');
    // HTTP requests may arrive in any order; each line is whole and none is lost.
    expect([...lines].sort()).toEqual([...texts].sort());
    expect(countRuns() - start).toBeLessThan(texts.length);
  });
});
