import { describe, expect, it } from 'vitest';
import type { StatusEvent } from '../../../../agent/status/reducer.js';
import { createLogger } from '../../../../agent/util/log.js';
import { turnChanges } from '../../../../agent/wiring/turn-changes.js';
import type { ChangeScope, ChangesView } from '../../../../protocol/changes.js';
import { eventually } from '../../../support/eventually.js';

const log = createLogger({ stderr: false });
const view = (source: 'git' | 'none'): ChangesView => ({ scope: 'turn', source, files: [], total: { files: 2, added: 7, removed: 1 }, truncated: false, unrecorded: [] });

function fakes(answer: () => Promise<ChangesView>, known = true) {
  const applied: [string, StatusEvent][] = [];
  const asked: [string, ChangeScope][] = [];
  const starts = turnChanges(
    {
      sessionStarted: async () => undefined,
      turnStarted: async () => undefined,
      hasTurnStart: () => true,
      changes: (key, scope) => {
        asked.push([key, scope]);
        return answer();
      },
    },
    {
      apply: (key, event) => {
        applied.push([key, event]);
        return undefined as never;
      },
      get: () => (known ? ({} as never) : undefined),
    },
    log,
  );
  return { starts, applied, asked };
}

describe('turnChanges', () => {
  it('puts a finished turn\u2019s total on its status', async () => {
    const { starts, applied, asked } = fakes(async () => view('git'));
    starts.turnEnded('t1');
    await eventually(async () => applied.length === 1 || null, 1000, 'the total applied');
    expect(asked).toEqual([['t1', 'turn']]);
    expect(applied[0]?.[0]).toBe('t1');
    expect(applied[0]?.[1]).toMatchObject({ kind: 'turn-changes', total: { files: 2, added: 7, removed: 1 } });
  });

  it('puts nothing when the changes cannot be told, the status is gone, or the compare fails', async () => {
    for (const f of [fakes(async () => view('none')), fakes(async () => view('git'), false), fakes(() => Promise.reject(new Error('git broke')))]) {
      f.starts.turnEnded('t1');
      await new Promise((r) => setTimeout(r, 20));
      expect(f.applied).toEqual([]);
    }
  });

  it('gives a finished turn\u2019s total to whoever waits for it, no longer than it may wait', async () => {
    let release: (v: ChangesView) => void = () => undefined;
    const { starts } = fakes(() => new Promise((resolve) => (release = resolve)));
    starts.turnEnded('t1');
    const waited = starts.totalOf('t1', 1000);
    release(view('git'));
    await expect(waited).resolves.toEqual({ files: 2, added: 7, removed: 1 });
    const slow = fakes(() => new Promise(() => undefined));
    slow.starts.turnEnded('t2');
    await expect(slow.starts.totalOf('t2', 30)).resolves.toBeNull();
    // No compare under way: what the status says.
    await expect(fakes(async () => view('git')).starts.totalOf('t3', 30)).resolves.toEqual(null);
  });

  it('compares nothing, and runs no git, for a session with no turn start recorded', async () => {
    let asked = 0;
    const starts = turnChanges(
      { sessionStarted: async () => undefined, turnStarted: async () => undefined, hasTurnStart: () => false, changes: async () => { asked++; return view('git'); } },
      { apply: () => undefined as never, get: () => undefined },
      log,
    );
    starts.turnEnded('t1');
    await expect(starts.totalOf('t1', 30)).resolves.toBeNull();
    expect(asked).toBe(0);
  });
});
