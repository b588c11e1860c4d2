/**
 * The cards of unread screens answered by a key, kept in their place a moment: the key leads
 * Claude to its next screen, which the agent offers as an approval that follows the answered
 * one (`Approval.follows`), and the card seems to follow the screen rather than go and come.
 */
import type { Approval } from '../../protocol/approvals.js';

/** How long an answered card waits for the screen that follows: past the agent's poll and its second look. */
export const FOLLOW_WAIT_MS = 3_000;
/** Cards waiting at once; past it the oldest goes. */
export const FOLLOWING_MAX = 16;

export class FollowingCards {
  private readonly held = new Map<string, { approval: Approval; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    /** Told whenever a card starts or stops waiting. */
    private readonly changed: () => void,
    private readonly waitMs = FOLLOW_WAIT_MS,
  ) {}

  /** The cards waiting, in the order they were answered. */
  get list(): Approval[] {
    return [...this.held.values()].map((h) => h.approval);
  }

  /** An unread screen answered by a key: its card waits where it is for the screen that follows. */
  hold(approval: Approval): void {
    this.drop(approval.id);
    const timer = setTimeout(() => this.release(approval.id), this.waitMs);
    this.held.set(approval.id, { approval, timer });
    while (this.held.size > FOLLOWING_MAX) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    this.changed();
  }

  /** The open approvals now: a waiting card one of them follows gives it its place. */
  followedBy(open: readonly Approval[]): void {
    for (const approval of open) if (approval.follows !== undefined) this.release(approval.follows);
  }

  clear(): void {
    if (this.held.size === 0) return;
    for (const id of [...this.held.keys()]) this.drop(id);
    this.changed();
  }

  private release(id: string): void {
    if (this.drop(id)) this.changed();
  }

  private drop(id: string): boolean {
    const held = this.held.get(id);
    if (!held) return false;
    clearTimeout(held.timer);
    this.held.delete(id);
    return true;
  }
}
