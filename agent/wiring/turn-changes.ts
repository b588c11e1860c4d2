import type { SessionChanges } from '../changes/session-changes.js';
import type { StatusManager } from '../status/status-manager.js';
import type { Logger } from '../util/log.js';

/** What the hooks tell review: where each session and turn starts, and when a turn ends. */
export interface TurnStarts {
  sessionStarted(key: string, cwd: string): Promise<void>;
  turnStarted(key: string, cwd: string): Promise<void>;
  turnEnded(key: string): void;
}

/**
 * Review and the status, joined: each start is recorded (agent/changes/), and a turn that ends
 * is compared with its start, its total put on the session's status, where the review card
 * says "3 files changed, +40 −12". A session outside git, or whose turn start was not
 * recorded, gets none.
 */
export function turnChanges(changes: Pick<SessionChanges, 'sessionStarted' | 'turnStarted' | 'changes'>, status: Pick<StatusManager, 'apply' | 'get'>, log: Logger): TurnStarts {
  return {
    sessionStarted: (key, cwd) => changes.sessionStarted(key, cwd),
    turnStarted: (key, cwd) => changes.turnStarted(key, cwd),
    turnEnded(key) {
      void changes
        .changes(key, 'turn', null)
        .then((view) => {
          if (view.source === 'git' && status.get(key) !== undefined) status.apply(key, { kind: 'turn-changes', total: view.total, at: Date.now() });
        })
        .catch((err: unknown) => log.warn('could not compare a finished turn with its start', { key, error: (err as Error).message }));
    },
  };
}
