import type { EventEmitter } from 'node:events';
import { z } from 'zod';
import { type Approval, type ApprovalServerMessage, claudeWaitsOn } from '../../protocol/approvals.js';
import { splitMachineKey } from '../../protocol/machine-key.js';
import { MachineId } from '../../protocol/machines.js';
import type { StatusServerMessage, TabStatus } from '../../protocol/status.js';
import { readJsonFile } from '../store/atomic-file.js';
import { GatheredWriter } from '../store/gathered-writer.js';
import type { Disposable } from '../util/disposable.js';
import type { Logger } from '../util/log.js';
import { FOLLOW_MAX_ITEMS } from './machine-follower.js';
import type { MachineUnion, UnionEvents } from './machine-union.js';

/**
 * How long a session's wait with nothing to approve must last before it is pushed: a
 * PermissionRequest's needs-input comes just before the approval it opens, and the approval is
 * what the person is told of.
 */
export const MACHINE_PUSH_SETTLE_MS = 250;

/** The states a session is pushed for when it moves into them, as the home agent's own are. */
const PUSHED_STATES: ReadonlySet<TabStatus['state']> = new Set(['needs-input', 'ready-for-review']);

/** What is pushed, in the home agent's keys: PushNotifier does the pushing, to every device that chose it. */
export interface MachineAnnouncer {
  approval(approval: Approval): void;
  needsInput(key: string): void;
  review(key: string, status: TabStatus): void;
  /** A notification's tag (the approval's id, or the tab's tag) is settled: it leaves every device told. */
  approvalSettled(id: string): void;
  tabMovedOn(key: string): void;
}

/** Of one machine: the approvals pushed (or offered quietly), and each session's wait pushed, by the time it began. */
interface Announced {
  approvals: Set<string>;
  tabs: Map<string, number>;
}

const KEY = z.string().max(256);
const MachinePushesFile = z.strictObject({
  version: z.literal(1),
  machines: z.record(
    MachineId,
    z.strictObject({ approvals: z.array(KEY).max(FOLLOW_MAX_ITEMS), tabs: z.array(z.tuple([KEY, z.number()])).max(FOLLOW_MAX_ITEMS) }),
  ),
});

/** What of the union is read: its events, and what its followers know now. */
type UnionView = Pick<EventEmitter<UnionEvents>, 'on' | 'off'> & Pick<MachineUnion, 'approvals' | 'tabs' | 'machines'>;

function sameAnnounced(a: Announced, b: Announced): boolean {
  if (a.approvals.size !== b.approvals.size || a.tabs.size !== b.tabs.size) return false;
  for (const id of a.approvals) if (!b.approvals.has(id)) return false;
  for (const [key, since] of a.tabs) if (b.tabs.get(key) !== since) return false;
  return true;
}

/**
 * Pushes the linked machines' events from the home agent, so a phone paired only with it is
 * told of every machine's approvals, waits and finished turns, by the rules the machine itself
 * pushes by: an approval it offered quietly (seen again after a restart, or following an
 * answer) is not pushed; a session's wait with an approval open is told by the approval.
 *
 * Once, across restarts of either side: what was pushed is kept in a file (approvals by id,
 * waits by the time they began, which a machine's restart keeps), and only a machine that
 * answers now, with both of its snapshots in, is looked at. What began while the home agent was
 * down or the machine unreachable is pushed when it is next seen, if it still waits. A machine
 * seen for the first time (just linked) has what waits there now noted, not pushed. The file
 * is written a moment after a push (GatheredWriter) and at every stop: only a crash in that
 * moment can push something again.
 */
export class MachinePushes implements Disposable {
  private readonly announced = new Map<string, Announced>();
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Immediate | null = null;
  /** Written off the event loop, a burst at once; a stop writes what is left. */
  private readonly file: GatheredWriter;
  /** Waits with nothing to approve, by key and start, and when they were first seen: pushed once they lasted `settleMs`. */
  private unsettled = new Map<string, number>();

  private readonly onStatus = (msg: StatusServerMessage | ApprovalServerMessage) => {
    if (msg.type === 'approval-resolved') this.announcer.approvalSettled(msg.resolution.id);
    else if (msg.type === 'status:removed') this.announcer.tabMovedOn(msg.tabId);
    else if (msg.type === 'status:update') {
      if (PUSHED_STATES.has(msg.status.state)) this.lookSoon();
      else this.announcer.tabMovedOn(msg.tabId);
    } else if (msg.type === 'approval-opened') this.lookSoon();
  };

  private readonly onResync = () => this.lookSoon();

  constructor(
    private readonly union: UnionView,
    private readonly announcer: MachineAnnouncer,
    private readonly path: string,
    private readonly log: Logger,
    private readonly settleMs = MACHINE_PUSH_SETTLE_MS,
  ) {
    this.file = new GatheredWriter(path, () => this.fileContent(), log, 'the linked machines’ pushes file');
    this.load();
    union.on('status', this.onStatus);
    union.on('resync', this.onResync);
  }

  /**
   * Every machine that answers now: what waits there and was not pushed yet is pushed, once.
   * Made right after every change that may bring something to push (an approval, a session
   * moving into a wait or a review, a machine's whole status); a wait with nothing to approve
   * is pushed once it has lasted `settleMs` here, when it is looked at again.
   */
  look(): void {
    const at = Date.now();
    const linked = new Set<string>();
    const now = new Map<string, { approvals: Approval[]; tabs: [string, TabStatus][] }>();
    for (const m of this.union.machines()) {
      linked.add(m.id);
      if (m.reach === 'ok') now.set(m.id, { approvals: [], tabs: [] });
    }
    for (const a of this.union.approvals()) if (a.machine) now.get(a.machine)?.approvals.push(a);
    for (const [key, status] of Object.entries(this.union.tabs())) {
      const machine = splitMachineKey(key)?.machineId;
      if (machine) now.get(machine)?.tabs.push([key, status]);
    }
    let changed = false;
    for (const id of [...this.announced.keys()]) {
      if (linked.has(id)) continue;
      this.announced.delete(id);
      changed = true;
    }
    const waiting = new Map<string, number>();
    for (const [id, { approvals, tabs }] of now) {
      const before = this.announced.get(id);
      const next: Announced = { approvals: new Set(approvals.map((a) => a.id)), tabs: new Map() };
      if (before) for (const a of approvals) if (!a.quiet && !before.approvals.has(a.id)) this.announcer.approval(a);
      const waitedOn = new Set(approvals.filter((a) => claudeWaitsOn(a.kind)).map((a) => a.tabId));
      for (const [key, status] of tabs) {
        if (!PUSHED_STATES.has(status.state)) continue;
        // Seen before (or on a machine seen for the first time): noted, not pushed.
        if (!before || before.tabs.get(key) === status.since) next.tabs.set(key, status.since);
        else if (status.state === 'ready-for-review') {
          this.announcer.review(key, status);
          next.tabs.set(key, status.since);
        } else if (waitedOn.has(key)) next.tabs.set(key, status.since);
        else {
          const first = this.unsettled.get(`${key} ${status.since}`) ?? at;
          if (at - first >= this.settleMs) {
            this.announcer.needsInput(key);
            next.tabs.set(key, status.since);
          } else {
            waiting.set(`${key} ${status.since}`, first);
          }
        }
      }
      if (before && sameAnnounced(before, next)) continue;
      this.announced.set(id, next);
      changed = true;
    }
    this.unsettled = waiting;
    if (changed) this.save();
    if (waiting.size > 0) this.lookOnceSettled();
  }

  /**
   * Looks right after the change that asked has reached the phones: what the status channel
   * sends is not held behind this look and its write to disk, and the changes of one burst are
   * looked at together. Nothing is lost to a stop in between: what was not noted as pushed is
   * pushed when the home agent is back.
   */
  private lookSoon(): void {
    if (this.soon) return;
    this.soon = setImmediate(() => {
      this.soon = null;
      this.look();
    });
  }

  private lookOnceSettled(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.look();
    }, this.settleMs);
    this.timer.unref();
  }

  private load(): void {
    const read = readJsonFile(this.path, MachinePushesFile);
    if (read.status === 'corrupt') this.log.warn('the linked machines’ pushes file is corrupt; what waits on them now is noted, not pushed', { reason: read.reason });
    if (read.status !== 'ok') return;
    for (const [id, entry] of Object.entries(read.value.machines)) this.announced.set(id, { approvals: new Set(entry.approvals), tabs: new Map(entry.tabs) });
  }

  private save(): void {
    this.file.schedule();
  }

  private fileContent(): unknown {
    return { version: 1, machines: Object.fromEntries([...this.announced].map(([id, a]) => [id, { approvals: [...a.approvals], tabs: [...a.tabs] }])) };
  }

  async dispose(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.soon) clearImmediate(this.soon);
    this.soon = null;
    this.union.off('status', this.onStatus);
    this.union.off('resync', this.onResync);
    try {
      await this.file.flush();
    } catch (err) {
      // After a restart, what is not in the file may be pushed again.
      this.log.warn('could not write the linked machines’ pushes file', { error: (err as Error).message });
    }
  }
}
