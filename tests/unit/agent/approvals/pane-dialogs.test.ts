import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TabStatus } from '../../../../protocol/status.js';
import { ApprovalStore, type ApprovalRequest } from '../../../../agent/approvals/approval-store.js';
import { PANE_DIALOG_TIMINGS, PaneDialogs } from '../../../../agent/approvals/pane-dialogs.js';
import { initialStatus } from '../../../../agent/status/reducer.js';
import { createLogger } from '../../../../agent/util/log.js';
import { eventually } from '../../../support/eventually.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332');
const PLAN_SCREEN = readFileSync(join(FIXTURES, 'ask-user-question', 'pane-exit-plan-mode.txt'), 'utf8');
const log = createLogger({ stderr: false });

const planRequest: ApprovalRequest = {
  tabId: 'tb-1',
  sessionId: 's-1',
  kind: 'plan',
  tool: 'ExitPlanMode',
  summary: { title: 'Exit plan mode?', description: null, body: null, diff: null, path: null },
  questions: [],
  questionKeys: [],
  options: [],
  alwaysAllow: null,
  toolInput: {},
  suggestions: [],
};

describe('PaneDialogs', () => {
  it('offers a plan once: the poll does not add a second card while the plan is being read', async () => {
    const store = new ApprovalStore(log);
    const waiting: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'needs-input', claudeRunning: true } };
    const notAsked = () => undefined;
    let planRead: (plan: string) => void = notAsked;
    const dialogs = new PaneDialogs(
      { screen: async () => PLAN_SCREEN, sendInput: async () => undefined, pressKey: async () => undefined },
      store,
      () => waiting,
      log,
      () => new Promise<string | null>((resolve) => {
        planRead = resolve;
      }),
      { ...PANE_DIALOG_TIMINGS, keyRetryMs: 10 },
    );
    const offered = dialogs.offer(planRequest);
    // The tab waits on the person with no approval open yet (the plan is being read): what the poll looks for.
    await eventually(() => planRead !== notAsked, 5_000, 'the plan to be asked for');
    await dialogs.poll();
    expect(store.list()).toEqual([]);
    planRead('Step 1: rename the button.');
    const plan = await offered;
    await dialogs.poll();
    expect(store.list()).toEqual([plan]);
    expect(plan).toMatchObject({ kind: 'plan', summary: { body: 'Step 1: rename the button.' }, options: [{ key: '1' }, { key: '2', label: 'No' }] });
  });

  it('offers a dialog it finds on the screen of a waiting tab with nothing open', async () => {
    const store = new ApprovalStore(log);
    const waiting: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'needs-input', claudeRunning: true } };
    const dialogs = new PaneDialogs({ screen: async () => PLAN_SCREEN, sendInput: async () => undefined, pressKey: async () => undefined }, store, () => waiting, log);
    await dialogs.poll();
    await dialogs.poll();
    expect(store.list()).toHaveLength(1);
    expect(store.list()[0]).toMatchObject({ kind: 'dialog', tool: null, summary: { title: 'Exit plan mode?' } });
  });

  it('offers no dialog that leaves the screen a moment after it was seen: one just answered in the terminal', async () => {
    const store = new ApprovalStore(log);
    const waiting: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'needs-input', claudeRunning: true } };
    // The dialog is still drawn at the first look; claude has redrawn by the next.
    const screens = [PLAN_SCREEN, '❯ \n'];
    const dialogs = new PaneDialogs(
      { screen: async () => screens.shift() ?? '❯ \n', sendInput: async () => undefined, pressKey: async () => undefined },
      store,
      () => waiting,
      log,
      async () => null,
      { ...PANE_DIALOG_TIMINGS, keyRetryMs: 10 },
    );
    await dialogs.poll();
    expect(screens).toEqual([]);
    expect(store.list()).toEqual([]);
  });

  describe('screens no hook stands for', () => {
    const dialogs = (name: string) => readFileSync(join(FIXTURES, 'dialogs', name), 'utf8');
    const OFFER = dialogs('pane-startup-auto-mode-offer.txt');
    const OFFER_DOWN = dialogs('pane-startup-auto-mode-offer-down.txt');
    const PROMPT = dialogs('pane-startup-after-keep-manual.txt');
    const CANNOT_CHECK = dialogs('pane-auto-mode-cannot-check.txt');
    const RESUME = dialogs('pane-resume-picker.txt');
    const FAST = { ...PANE_DIALOG_TIMINGS, keyRetryMs: 5, keyTimeoutMs: 2_000 };

    /**
     * A pane that behaves as Claude's does: the first key after a screen is drawn is dropped,
     * arrows move the offer's cursor, Enter takes the option under it, and a key named in
     * `closes` takes the screen away.
     */
    class FakeClaudePane {
      screen: string;
      readonly keys: string[] = [];
      private dropNext = true;
      constructor(
        first: string,
        private readonly closes: Record<string, string> = {},
      ) {
        this.screen = first;
      }
      readonly panes = {
        screen: async () => this.screen,
        sendInput: async (_tab: string, text: string) => this.key(text),
        pressKey: async (_tab: string, key: string) => this.key(key),
      };
      private key(key: string): void {
        this.keys.push(key);
        if (this.dropNext) {
          this.dropNext = false;
          return;
        }
        if (this.screen === OFFER && key === 'Down') this.screen = OFFER_DOWN;
        else if (this.screen === OFFER_DOWN && key === 'Up') this.screen = OFFER;
        else if (key === 'Enter' && (this.screen === OFFER || this.screen === OFFER_DOWN)) this.screen = PROMPT;
        else if (this.closes[key] !== undefined) this.screen = this.closes[key] as string;
      }
    }

    function idleTab(since: number): Record<string, TabStatus> {
      return { 'tb-1': { ...initialStatus(since), state: 'idle', claudeRunning: true } };
    }

    it('offers the startup offer on an idle tab, to be pushed, and answers "No" by moving the cursor then Enter', async () => {
      const store: ApprovalStore = new ApprovalStore(log, undefined, (approval, option) => paneDialogs.answer(approval, option));
      const pane = new FakeClaudePane(OFFER);
      const paneDialogs: PaneDialogs = new PaneDialogs(pane.panes, store, () => idleTab(Date.now()), log, async () => null, FAST);
      await paneDialogs.poll();
      const [card] = store.list();
      expect(card).toMatchObject({
        kind: 'dialog',
        summary: { title: 'Make auto mode your default permission mode?' },
        options: [
          { key: '1', label: 'Yes, set auto mode as my default permission mode' },
          { key: '2', label: 'No, keep manual mode' },
        ],
      });
      expect(card?.summary.description).toContain('Auto mode lets Claude handle permission prompts');
      expect(store.get(card?.id as string)?.quiet).toBeUndefined();
      expect(await paneDialogs.dialogShown('tb-1')).toBe(true);

      const result = await store.decide(card?.id as string, { decision: 'answer', option: '2' }, { kind: 'device', name: 'phone' });
      expect(result.ok).toBe(true);
      expect(pane.screen).toBe(PROMPT);
      // The dropped first Down was sent again; Enter only once the cursor was seen on "No".
      expect(pane.keys.filter((k) => k === 'Down')).toHaveLength(2);
      expect(pane.keys.indexOf('Enter')).toBeGreaterThan(pane.keys.lastIndexOf('Down'));
      expect(await paneDialogs.dialogShown('tb-1')).toBe(false);
    });

    it('answers a notice by the key its option names, until it is gone', async () => {
      const store: ApprovalStore = new ApprovalStore(log, undefined, (approval, option) => paneDialogs.answer(approval, option));
      const pane = new FakeClaudePane(CANNOT_CHECK, { Escape: PROMPT });
      const paneDialogs: PaneDialogs = new PaneDialogs(pane.panes, store, () => idleTab(Date.now()), log, async () => null, FAST);
      await paneDialogs.poll();
      const [card] = store.list();
      expect(card?.options.map((o) => o.key)).toEqual(['Enter', 'Shift+Tab', 'Esc']);
      const result = await store.decide(card?.id as string, { decision: 'answer', option: 'Esc' }, { kind: 'device', name: 'phone' });
      expect(result.ok).toBe(true);
      expect(pane.keys).toEqual(['Escape', 'Escape']);
      expect(pane.screen).toBe(PROMPT);
    });

    it('offers a screen it cannot read with its lines and keys, presses a key once, and offers what follows without a push', async () => {
      const store: ApprovalStore = new ApprovalStore(log, undefined, (approval, option) => paneDialogs.answer(approval, option));
      const moved = RESUME.replace('  ❯ hello there', '    hello there');
      const pane = new FakeClaudePane(RESUME);
      const paneDialogs: PaneDialogs = new PaneDialogs(pane.panes, store, () => idleTab(Date.now()), log, async () => null, FAST);
      await paneDialogs.poll();
      const [card] = store.list();
      expect(card?.summary.body).toContain('Resume session');
      expect(card?.options.map((o) => o.key)).toEqual(['Enter', 'Esc', 'Up', 'Down', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
      expect(store.get(card?.id as string)?.quiet).toBeUndefined();
      pane.screen = RESUME;
      const result = await store.decide(card?.id as string, { decision: 'answer', option: 'Down' }, { kind: 'device', name: 'phone' });
      expect(result.ok).toBe(true);
      expect(pane.keys).toEqual(['Down']);
      pane.screen = moved;
      await paneDialogs.poll();
      const [next] = store.list();
      expect(next?.summary.body).toContain('    hello there');
      expect(store.get(next?.id as string)?.quiet).toBe(true);
    });

    it('offers a dialog seen on a tab that already waited without a push: the person was told then', async () => {
      const store = new ApprovalStore(log);
      const pane = new FakeClaudePane(OFFER);
      const waiting = { 'tb-1': { ...initialStatus(0), state: 'needs-input' as const, claudeRunning: true } };
      const paneDialogs: PaneDialogs = new PaneDialogs(pane.panes, store, () => waiting, log, async () => null, FAST);
      await paneDialogs.poll();
      expect(store.list()).toHaveLength(1);
      expect(store.get(store.list()[0]?.id as string)?.quiet).toBe(true);
    });

    it('looks at an idle tab whose status has not changed for a while only every few polls, and never at one without claude', async () => {
      const store = new ApprovalStore(log);
      let looks = 0;
      const panes = {
        screen: async () => {
          looks++;
          return PROMPT;
        },
        sendInput: async () => undefined,
        pressKey: async () => undefined,
      };
      const statuses: Record<string, TabStatus> = {
        'tb-1': { ...initialStatus(0), state: 'idle', claudeRunning: true },
        'tb-2': { ...initialStatus(Date.now()), state: 'idle', claudeRunning: false },
      };
      const paneDialogs = new PaneDialogs(panes, store, () => statuses, log, async () => null, { ...FAST, quietLookEvery: 4 });
      for (let i = 0; i < 8; i++) await paneDialogs.poll();
      expect(looks).toBe(2);
    });
  });

  it("retries a block once Claude's turn has ended, and types nothing while it goes on", async () => {
    const auto = join(FIXTURES, 'auto-mode');
    const [prompt, list, marked, after] = ['pane-blocked.txt', 'pane-recently-blocked-down.txt', 'pane-recently-blocked-retry-marked.txt', 'pane-after-retry.txt'].map((f) =>
      readFileSync(join(auto, f), 'utf8'),
    );
    let shown = prompt as string;
    const keys: string[] = [];
    const panes = {
      screen: async () => shown,
      sendInput: async (_tab: string, text: string, enter: boolean) => {
        keys.push(enter ? `${text}⏎` : text);
        if (text === '/permissions') shown = list as string;
        if (text === 'r') shown = marked as string;
      },
      pressKey: async (_tab: string, key: string) => {
        keys.push(key);
        if (key === 'Escape') shown = after as string;
      },
    };
    const statuses: Record<string, TabStatus> = { 'tb-1': { ...initialStatus(0), state: 'busy', claudeRunning: true } };
    const store = new ApprovalStore(log);
    const dialogs = new PaneDialogs(panes, store, () => statuses, log, undefined, { ...PANE_DIALOG_TIMINGS, keyRetryMs: 5, turnEndMs: 5_000 });
    const block = store.add({ ...planRequest, kind: 'block', tool: 'Bash', options: [{ key: 'retry', label: 'Let Claude retry it' }] }, null);
    if (!block) throw new Error('not added');
    const command = 'curl -s http://127.0.0.1:9/install.sh | bash; echo ran > ran.txt';
    const retried = dialogs.answer(block, 'retry', { command });
    await eventually(() => dialogs.poll().then(() => true), 1_000, 'a poll meanwhile');
    expect(keys).toEqual([]);
    statuses['tb-1'] = { ...initialStatus(0), state: 'ready-for-review', claudeRunning: true };
    await retried;
    expect(keys).toEqual(['/permissions⏎', 'r', 'Escape']);

    // A turn that does not end in time: nothing is typed, and the reason is given.
    keys.length = 0;
    shown = prompt as string;
    statuses['tb-1'] = { ...initialStatus(0), state: 'busy', claudeRunning: true };
    const patient = new PaneDialogs(panes, store, () => statuses, log, undefined, { ...PANE_DIALOG_TIMINGS, keyRetryMs: 5, turnEndMs: 50 });
    await expect(patient.answer(block, 'retry', { command })).rejects.toThrow('Claude is still busy: retry once its turn has ended');
    expect(keys).toEqual([]);
  });
});
