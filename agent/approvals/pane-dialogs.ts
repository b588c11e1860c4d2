import type { Approval } from '../../protocol/approvals.js';
import type { TabStatus } from '../../protocol/status.js';
import type { Logger } from '../util/log.js';
import type { ApprovalRequest, ApprovalStore } from './approval-store.js';
import { dialogFingerprint, parseDialog, type ScreenDialog } from './dialog-parser.js';
import { cardText } from '../util/card-text.js';
import { SUMMARY_LIMITS } from './summary.js';
import type { Disposable } from '../util/disposable.js';

/**
 * What the dialogs need of the panes Claude runs in (a tab's, or an outside session's in the
 * person's own tmux): their screens, and typing into them. Both throw for a key with no pane.
 */
export interface DialogPanes {
  screen(tabId: string): Promise<string>;
  sendInput(tabId: string, text: string, enter: boolean): Promise<void>;
}

export interface PaneDialogTimings {
  /** How often tabs that wait on the person with no hook held for them are looked at. */
  pollMs: number;
  /** Between tries of a key: the dialog drops keys for its first few hundred milliseconds. */
  keyRetryMs: number;
  /** How long an answer by keys may take before it is reported as not taken. */
  keyTimeoutMs: number;
  /** How long a plan's dialog may take to be drawn after its hook arrived. */
  drawTimeoutMs: number;
}

export const PANE_DIALOG_TIMINGS: PaneDialogTimings = { pollMs: 1_000, keyRetryMs: 400, keyTimeoutMs: 10_000, drawTimeoutMs: 3_000 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Dialogs answered by keys: ExitPlanMode (Claude does not obey the hook's answer there) and any
 * dialog on a tab's screen that no held hook stands for (claude started before the agent, an
 * approval that expired, an agent restarted while a dialog was up). They are read off the pane,
 * offered as approvals of their own, answered by typing the option's key, and settled as
 * answered in the terminal when the dialog leaves the screen by other hands.
 */
export class PaneDialogs implements Disposable {
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  /** What each key-answered approval looks like on screen, to know when it is gone. */
  private readonly shown = new Map<string, string>();
  /**
   * Tabs whose plan is being offered: the look at the screen and the transcript takes a moment,
   * and meanwhile the tab waits with no approval open, which the poll would otherwise offer as
   * a second card for the same dialog.
   */
  private readonly offering = new Set<string>();

  constructor(
    private readonly panes: DialogPanes,
    private readonly approvals: ApprovalStore,
    private readonly statuses: () => Record<string, TabStatus>,
    private readonly log: Logger,
    /** The plan Claude asks to carry out, read from the tab's transcript, when it can be. */
    private readonly planOf: (tabId: string) => Promise<string | null> = async () => null,
    private readonly timings: PaneDialogTimings = PANE_DIALOG_TIMINGS,
  ) {
    approvals.on('message', (msg) => {
      if (msg.type === 'approval-resolved') this.shown.delete(msg.resolution.id);
    });
  }

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.timings.pollMs);
    this.timer.unref();
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The dialog on a tab's screen now, or null (no dialog, or no pane to read). */
  async read(tabId: string): Promise<ScreenDialog | null> {
    try {
      return parseDialog(await this.panes.screen(tabId));
    } catch {
      return null;
    }
  }

  /**
   * Offers a plan's dialog once it is drawn, with the options read from the screen. When it
   * cannot be read the card still comes, with no options, and says to use the terminal.
   */
  async offer(request: ApprovalRequest): Promise<Approval | null> {
    this.offering.add(request.tabId);
    try {
      return await this.offerDrawn(request);
    } finally {
      this.offering.delete(request.tabId);
    }
  }

  private async offerDrawn(request: ApprovalRequest): Promise<Approval | null> {
    const deadline = Date.now() + this.timings.drawTimeoutMs;
    let dialog = await this.read(request.tabId);
    while (!dialog && Date.now() < deadline) {
      await sleep(this.timings.keyRetryMs / 2);
      dialog = await this.read(request.tabId);
    }
    // ExitPlanMode's hook input is empty in 2.1.332: the plan is in the transcript.
    const plan = request.kind === 'plan' && request.summary.body === null ? await this.planOf(request.tabId).catch(() => null) : null;
    const summary = plan ? { ...request.summary, body: cardText(plan, SUMMARY_LIMITS.plan) } : request.summary;
    const approval = this.approvals.add({ ...request, summary, options: dialog?.options ?? [] }, null);
    if (approval && dialog) this.shown.set(approval.id, dialogFingerprint(dialog));
    return approval;
  }

  /**
   * Types the option's key until the dialog is gone. Before each key the screen is read again,
   * so a key is never typed into whatever replaced the dialog.
   */
  async answer(approval: Approval, option: string): Promise<void> {
    const first = await this.read(approval.tabId);
    if (!first) throw new Error('the dialog is no longer on the screen');
    const expected = this.shown.get(approval.id) ?? dialogFingerprint(first);
    if (dialogFingerprint(first) !== expected) throw new Error('another dialog is on the screen now');
    const deadline = Date.now() + this.timings.keyTimeoutMs;
    for (;;) {
      await this.panes.sendInput(approval.tabId, option, false);
      await sleep(this.timings.keyRetryMs);
      const now = await this.read(approval.tabId);
      if (!now || dialogFingerprint(now) !== expected) return;
      if (Date.now() > deadline) throw new Error('the dialog did not take the answer');
    }
  }

  /** One look at the tabs that may show a dialog no hook stands for. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [tabId, status] of Object.entries(this.statuses())) {
        if (this.offering.has(tabId)) continue;
        const open = this.approvals.forTab(tabId);
        const byKeys = open.filter((a) => a.kind === 'plan' || a.kind === 'dialog');
        if (byKeys.length > 0) await this.settleGone(tabId, byKeys);
        else if (open.length === 0 && status.state === 'needs-input' && status.claudeRunning) await this.offerFound(tabId);
      }
    } catch (err) {
      this.log.warn('could not look for dialogs on screen', { error: (err as Error).message });
    } finally {
      this.polling = false;
    }
  }

  /** A dialog answered in the terminal (or gone with Claude): its card goes. */
  private async settleGone(tabId: string, byKeys: Approval[]): Promise<void> {
    const dialog = await this.read(tabId);
    const onScreen = dialog ? dialogFingerprint(dialog) : null;
    for (const approval of byKeys) {
      const expected = this.shown.get(approval.id);
      if (expected !== undefined && expected !== onScreen) this.approvals.settle(approval.id, 'answered-in-terminal', { kind: 'terminal', name: null });
    }
  }

  private async offerFound(tabId: string): Promise<void> {
    const first = await this.read(tabId);
    if (!first) return;
    // A dialog just answered in the terminal can still be on the screen for a moment after its
    // hook's approval was settled (claude has not redrawn yet): offered then, it would be a card
    // and a notification for a question already answered. Only a dialog still there, the same,
    // a key-retry later is one no hook stands for.
    await sleep(this.timings.keyRetryMs);
    const dialog = await this.read(tabId);
    if (!dialog || dialogFingerprint(dialog) !== dialogFingerprint(first)) return;
    // A plan's offer, or another look, may have begun meanwhile; or the wait ended.
    if (this.offering.has(tabId) || this.approvals.forTab(tabId).length > 0) return;
    const status = this.statuses()[tabId];
    if (status?.state !== 'needs-input' || !status.claudeRunning) return;
    const approval = this.approvals.add(
      {
        tabId,
        sessionId: this.statuses()[tabId]?.sessionId ?? null,
        kind: 'dialog',
        tool: null,
        summary: { title: dialog.title || 'Claude is asking', description: null, body: null, diff: null, path: null },
        questions: [],
        options: dialog.options,
        alwaysAllow: null,
        toolInput: {},
        questionKeys: [],
        suggestions: [],
      },
      null,
    );
    if (approval) {
      this.shown.set(approval.id, dialogFingerprint(dialog));
      this.log.info('offered a dialog read from the screen', { tabId, id: approval.id, options: dialog.options.length });
    }
  }
}
