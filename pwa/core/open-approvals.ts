/**
 * The open approvals as the status channel tells them: a full list in every `status:sync`,
 * then one `approval-opened` or `approval-resolved` at a time. Each change returns a new
 * array (or the same one when nothing changed), so elements given it see a new value.
 */
import type { Approval } from '../../protocol/approvals.js';

function oldestFirst(list: readonly Approval[]): Approval[] {
  return list
    .map((a, i) => ({ a, i }))
    .sort((x, y) => x.a.createdAt - y.a.createdAt || x.i - y.i)
    .map(({ a }) => a);
}

/**
 * A sync's list, leaving out what this client already saw resolved on the same socket: a
 * sync asked for on a live socket can cross a resolution already applied.
 */
export function syncedApprovals(incoming: readonly Approval[], resolved: ReadonlySet<string>): Approval[] {
  return oldestFirst(incoming.filter((a) => !resolved.has(a.id)));
}

/** One more open approval; a repeat (a sync and the message crossing) or a resolved one changes nothing. */
export function withOpened(list: readonly Approval[], approval: Approval, resolved: ReadonlySet<string>): readonly Approval[] {
  if (resolved.has(approval.id) || list.some((a) => a.id === approval.id)) return list;
  return oldestFirst([...list, approval]);
}

/** The list without a settled approval; the same list when it was not there. */
export function withoutApproval(list: readonly Approval[], id: string): readonly Approval[] {
  return list.some((a) => a.id === id) ? list.filter((a) => a.id !== id) : list;
}

/** Ids seen resolved, the oldest forgotten past `max`: only a crossing sync needs them. */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly max = 256) {}

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    while (this.ids.size > this.max) {
      const oldest = this.ids.values().next().value;
      if (oldest === undefined) break;
      this.ids.delete(oldest);
    }
  }

  clear(): void {
    this.ids.clear();
  }

  get set(): ReadonlySet<string> {
    return this.ids;
  }
}
