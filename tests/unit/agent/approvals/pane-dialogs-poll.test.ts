import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TabStatus } from '../../../../protocol/status.js';
import { ApprovalStore } from '../../../../agent/approvals/approval-store.js';
import { type DialogPanes, PANE_DIALOG_TIMINGS, PaneDialogs } from '../../../../agent/approvals/pane-dialogs.js';
import { initialStatus } from '../../../../agent/status/reducer.js';
import { createLogger } from '../../../../agent/util/log.js';

const DIALOGS = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332', 'dialogs');
const PROMPT = readFileSync(join(DIALOGS, 'pane-startup-after-keep-manual.txt'), 'utf8');
const OFFER = readFileSync(join(DIALOGS, 'pane-startup-auto-mode-offer.txt'), 'utf8');
const RESUME = readFileSync(join(DIALOGS, 'pane-resume-picker.txt'), 'utf8');
const log = createLogger({ stderr: false });
const FAST = { ...PANE_DIALOG_TIMINGS, keyRetryMs: 1, keyTimeoutMs: 2_000, quietLookEvery: 1_000, blindLookEvery: 1_000 };

/**
 * Tabs whose screens and pane activity the test sets, on a clock the test moves: which
 * screens a poll reads, and how often it asks when the panes were written to.
 */
class FakePanes implements DialogPanes {
  /** Now, in ms of the wall clock. */
  clock = 1_700_000_000_000;
  readonly screens = new Map<string, string>();
  /** When each pane was last written to, in whole seconds, as tmux says it; a tab left out is unknown. */
  readonly written = new Map<string, number>();
  readonly reads: string[] = [];
  readonly asked: string[][] = [];
  failActivity = false;

  screen = async (tabId: string) => {
    this.reads.push(tabId);
    const screen = this.screens.get(tabId);
    if (screen === undefined) throw new Error('no pane');
    return screen;
  };
  sendInput = async () => undefined;
  pressKey = async () => undefined;
  activity = async (tabIds: readonly string[]) => {
    this.asked.push([...tabIds]);
    if (this.failActivity) throw new Error('tmux: no server running');
    return new Map([...this.written].filter(([tabId]) => tabIds.includes(tabId)));
  };

  /** The pane is written to now. */
  write(tabId: string, screen = this.screens.get(tabId) ?? PROMPT): void {
    this.screens.set(tabId, screen);
    this.written.set(tabId, Math.floor(this.clock / 1000));
  }

  /** Reads since the last call. */
  takeReads(): string[] {
    return this.reads.splice(0);
  }
}

function recent(panes: FakePanes, ...tabIds: string[]): Record<string, TabStatus> {
  return Object.fromEntries(tabIds.map((id) => [id, { ...initialStatus(panes.clock), state: 'idle', claudeRunning: true } satisfies TabStatus]));
}

function setUp(timings = FAST) {
  const panes = new FakePanes();
  const store = new ApprovalStore(log);
  let statuses: Record<string, TabStatus> = {};
  const dialogs = new PaneDialogs(panes, store, () => statuses, log, async () => null, timings, () => panes.clock);
  return {
    panes,
    store,
    dialogs,
    setStatuses: (next: Record<string, TabStatus>) => {
      statuses = next;
    },
  };
}

describe('PaneDialogs: which screens a poll reads', () => {
  it('reads a screen once, then again only when its pane was written to since', async () => {
    const { panes, dialogs, setStatuses } = setUp();
    panes.write('tb-1');
    panes.write('tb-2');
    setStatuses(recent(panes, 'tb-1', 'tb-2'));
    panes.clock += 5_000;
    await dialogs.poll();
    expect(panes.takeReads().sort()).toEqual(['tb-1', 'tb-2']);

    for (let i = 0; i < 3; i++) {
      panes.clock += 500;
      await dialogs.poll();
    }
    expect(panes.takeReads()).toEqual([]);
    // One question to tmux a poll, for both tabs (the first poll reads every screen, asking nothing).
    expect(panes.asked).toHaveLength(3);
    expect(panes.asked.every((tabs) => [...tabs].sort().join() === 'tb-1,tb-2')).toBe(true);

    panes.clock += 500;
    panes.write('tb-2');
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-2']);
  });

  it('reads again a screen written to in the second its last read began: tmux tells whole seconds', async () => {
    const { panes, dialogs, setStatuses } = setUp();
    panes.clock = 1_700_000_000_100;
    panes.write('tb-1');
    setStatuses(recent(panes, 'tb-1'));
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-1']);
    // Written 300 ms after the read began, in the same second: the read may have missed it.
    panes.clock += 300;
    panes.write('tb-1');
    panes.clock += 200;
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-1']);
    // So did that read: once more.
    panes.clock += 1_000;
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-1']);
    // That read began in a later second than the last write: nothing more to see.
    panes.clock += 1_000;
    await dialogs.poll();
    expect(panes.takeReads()).toEqual([]);
  });

  it('reads a screen whose pane tmux could not place, or when tmux cannot be asked, on every poll', async () => {
    const { panes, dialogs, setStatuses } = setUp();
    panes.write('tb-1');
    panes.write('tb-2');
    panes.written.delete('tb-2');
    setStatuses(recent(panes, 'tb-1', 'tb-2'));
    panes.clock += 5_000;
    await dialogs.poll();
    panes.takeReads();
    panes.clock += 500;
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-2']);
    panes.failActivity = true;
    panes.clock += 500;
    await dialogs.poll();
    expect(panes.takeReads().sort()).toEqual(['tb-1', 'tb-2']);
  });

  it("reads again when the tab's status moves, or an approval of the tab is settled, with nothing written", async () => {
    const { panes, store, dialogs, setStatuses } = setUp();
    panes.write('tb-1');
    setStatuses(recent(panes, 'tb-1'));
    panes.clock += 5_000;
    await dialogs.poll();
    panes.takeReads();

    setStatuses({ 'tb-1': { ...initialStatus(panes.clock), state: 'ready-for-review', claudeRunning: true } });
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-1']);
    await dialogs.poll();
    expect(panes.takeReads()).toEqual([]);

    // A permission's card is answered: a dialog may still be drawn that the poll saw with the card open.
    const permission = store.add(
      { tabId: 'tb-1', sessionId: null, kind: 'permission', tool: 'Bash', summary: { title: 'Bash: ls', description: null, body: null, diff: null, path: null }, questions: [], options: [], alwaysAllow: null, toolInput: {}, questionKeys: [], suggestions: [] },
      null,
    );
    await dialogs.poll();
    expect(panes.takeReads()).toEqual([]);
    store.settle(permission?.id as string, 'expired', { kind: 'agent', name: null });
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-1']);
  });

  it('reads every screen due a look on every blind poll, asking tmux nothing then', async () => {
    const { panes, dialogs, setStatuses } = setUp({ ...FAST, blindLookEvery: 3 });
    panes.write('tb-1');
    setStatuses(recent(panes, 'tb-1'));
    panes.clock += 5_000;
    const reads: number[] = [];
    for (let i = 0; i < 7; i++) {
      panes.clock += 500;
      await dialogs.poll();
      reads.push(panes.takeReads().length);
    }
    expect(reads).toEqual([1, 0, 0, 1, 0, 0, 1]);
    expect(panes.asked).toHaveLength(4);
  });

  it('asks tmux nothing on a poll with no tab due a look', async () => {
    const { panes, dialogs, setStatuses } = setUp({ ...FAST, quietLookEvery: 4 });
    panes.write('tb-1');
    // Quiet for a while: looked at every 4th poll only.
    setStatuses({ 'tb-1': { ...initialStatus(0), state: 'idle', claudeRunning: true } });
    panes.clock += 5_000;
    for (let i = 0; i < 8; i++) {
      panes.clock += 500;
      await dialogs.poll();
    }
    // The first poll reads, asking nothing; the fifth asks, and reads nothing.
    expect(panes.asked).toHaveLength(1);
    expect(panes.takeReads()).toEqual(['tb-1']);
  });

  it('sees a dialog drawn on a screen read before, and its card go when the pane shows the prompt again', async () => {
    const { panes, store, dialogs, setStatuses } = setUp();
    panes.write('tb-1');
    setStatuses(recent(panes, 'tb-1'));
    panes.clock += 5_000;
    await dialogs.poll();
    panes.clock += 500;
    panes.write('tb-1', OFFER);
    panes.clock += 500;
    await dialogs.poll();
    expect(store.list()).toMatchObject([{ kind: 'dialog', summary: { title: 'Make auto mode your default permission mode?' } }]);
    panes.takeReads();
    panes.clock += 1_500;
    await dialogs.poll();
    expect(panes.takeReads()).toEqual([]);
    expect(store.list()).toHaveLength(1);
    panes.write('tb-1', PROMPT);
    panes.clock += 500;
    await dialogs.poll();
    expect(store.list()).toEqual([]);
  });

  it('forgets a tab gone: the next tab by that key is read afresh', async () => {
    const { panes, dialogs, setStatuses } = setUp();
    panes.write('tb-1');
    setStatuses(recent(panes, 'tb-1'));
    panes.clock += 5_000;
    await dialogs.poll();
    panes.takeReads();
    dialogs.forget('tb-1');
    panes.clock += 500;
    await dialogs.poll();
    expect(panes.takeReads()).toEqual(['tb-1']);
  });
});

describe('PaneDialogs: the next screen of one it could not read', () => {
  it("offers it as following the answered card, in that card's place", async () => {
    const panes = new FakePanes();
    const store: ApprovalStore = new ApprovalStore(log, undefined, (approval, option) => dialogs.answer(approval, option), () => panes.clock);
    const statuses = recent(panes, 'tb-1');
    const dialogs: PaneDialogs = new PaneDialogs(panes, store, () => statuses, log, async () => null, FAST, () => panes.clock);
    panes.write('tb-1', RESUME);
    await dialogs.poll();
    const [card] = store.list();
    expect(card?.follows).toBeUndefined();
    panes.clock += 2_000;
    expect((await store.decide(card?.id as string, { decision: 'answer', option: 'Down' }, { kind: 'device', name: 'phone' })).ok).toBe(true);
    panes.clock += 500;
    panes.write('tb-1', RESUME.replace('  ❯ hello there', '    hello there'));
    await dialogs.poll();
    const [next] = store.list();
    expect(next).toMatchObject({ follows: card?.id, createdAt: card?.createdAt });
    expect(next?.expiresAt).toBeGreaterThan(card?.expiresAt as number);

    // A dialog it reads follows from the answer too (no push), but is a card of its own.
    expect((await store.decide(next?.id as string, { decision: 'answer', option: 'Enter' }, { kind: 'device', name: 'phone' })).ok).toBe(true);
    panes.clock += 500;
    panes.write('tb-1', OFFER);
    await dialogs.poll();
    const [offer] = store.list();
    expect(offer).toMatchObject({ follows: next?.id, summary: { title: 'Make auto mode your default permission mode?' } });
    expect(store.get(offer?.id as string)?.quiet).toBe(true);
  });
});
