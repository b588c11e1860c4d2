import type { ChangesTotal } from '../../protocol/changes-summary.js';
import type { SessionChanges } from '../changes/session-changes.js';
import type { StatusManager } from '../status/status-manager.js';
import type { Logger } from '../util/log.js';

/** What the hooks tell review: where each session and turn starts, and when a turn ends. */
export interface TurnStarts {
  sessionStarted(key: string, cwd: string): Promise<void>;
  turnStarted(key: string, cwd: string): Promise<void>;
  turnEnded(key: string): void;
  /**
   * What the turn that ended last changed: its compare's total, waited for at most `waitMs`
   * (the finished-turn push says it); null when none is known.
   */
  totalOf(key: string, waitMs?: number): Promise<ChangesTotal | null>;
}

/** How long a finished turn's push waits for the turn's compare. */
export const TURN_TOTAL_WAIT_MS = 1500;

/**
 * Review and the status, joined: each start is recorded (agent/changes/), and a turn that ends
 * is compared with its start, its total put on the session's status, where the review card
 * says "3 files changed, +40 −12". A session outside git, or whose turn start was not
 * recorded, gets none.
 */
export function turnChanges(changes: Pick<SessionChanges, 'sessionStarted' | 'turnStarted' | 'changes' | 'hasTurnStart'>, status: Pick<StatusManager, 'apply' | 'get'>, log: Logger): TurnStarts {
  /** Each session's compare under way, until it settles: one a session, so the map stays small. */
  const comparing = new Map<string, Promise<ChangesTotal | null>>();
  return {
    sessionStarted: (key, cwd) => changes.sessionStarted(key, cwd),
    turnStarted: (key, cwd) => changes.turnStarted(key, cwd),
    turnEnded(key) {
      // No turn start recorded (outside git, say): nothing to compare, and no git to run.
      if (!changes.hasTurnStart(key)) return;
      const total = changes
        .changes(key, 'turn', null)
        .then((view) => {
          if (view.source !== 'git') return null;
          if (status.get(key) !== undefined) status.apply(key, { kind: 'turn-changes', total: view.total, at: Date.now() });
          return view.total;
        })
        .catch((err: unknown) => {
          log.warn('could not compare a finished turn with its start', { key, error: (err as Error).message });
          return null;
        });
      comparing.set(key, total);
      void total.then(() => {
        if (comparing.get(key) === total) comparing.delete(key);
      });
    },
    totalOf(key, waitMs = TURN_TOTAL_WAIT_MS) {
      const total = comparing.get(key);
      if (!total) return Promise.resolve(status.get(key)?.turnChanges ?? null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), waitMs);
        void total.then((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
    },
  };
}
