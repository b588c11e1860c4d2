import type { Approval, DialogOption } from '../../protocol/approvals.js';
import type { ClaudeMode } from '../../protocol/claude-mode.js';
import type { TabStatus } from '../../protocol/status.js';
import type { NamedKey } from '../tmux/commands.js';
import { cardText } from '../util/card-text.js';
import type { Disposable } from '../util/disposable.js';
import type { Logger } from '../util/log.js';
import type { ApprovalRequest, ApprovalStore } from './approval-store.js';
import { retryBlocked } from './blocked-list.js';
import { type DialogKey, readingFingerprint, readScreen, type ScreenReading, UNKNOWN_SCREEN_KEYS } from './screen-reader.js';
import { SUMMARY_LIMITS } from './summary.js';

/**
 * What the dialogs need of the panes Claude runs in (a tab's, or an outside session's in the
 * person's own tmux): their screens, and typing into them. Each throws for a key with no pane.
 */
export interface DialogPanes {
  screen(tabId: string): Promise<string>;
  sendInput(tabId: string, text: string, enter: boolean): Promise<void>;
  pressKey(tabId: string, key: NamedKey): Promise<void>;
}

export interface PaneDialogTimings {
  /** How often the tabs that may show a dialog are looked at. */
  pollMs: number;
  /** Between tries of a key: the dialog drops keys for its first few hundred milliseconds. */
  keyRetryMs: number;
  /** How long an answer by keys may take before it is reported as not taken. */
  keyTimeoutMs: number;
  /** How long a plan's dialog may take to be drawn after its hook arrived. */
  drawTimeoutMs: number;
  /**
   * A tab whose status changed this recently (Claude started, a turn ended, a dialog closed)
   * is looked at on every poll: that is when dialogs come. The others every `quietLookEvery`th.
   */
  recentMs: number;
  quietLookEvery: number;
  /** A dialog offered this soon after one of the tab's was answered follows from the answer: no push. */
  followUpMs: number;
  /** How long a block's retry waits for Claude's turn to end (it usually comes mid-turn). */
  turnEndMs: number;
}

export const PANE_DIALOG_TIMINGS: PaneDialogTimings = {
  pollMs: 500,
  keyRetryMs: 400,
  keyTimeoutMs: 10_000,
  drawTimeoutMs: 3_000,
  recentMs: 60_000,
  quietLookEvery: 10,
  followUpMs: 10_000,
  turnEndMs: 60_000,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a key-answered approval looked like on screen when offered: to answer it, and to know when it is gone. */
interface Shown {
  fingerprint: string;
  reading: Exclude<ScreenReading, { kind: 'prompt' }>;
}

const TMUX_KEYS: Record<DialogKey, NamedKey> = { Enter: 'Enter', Esc: 'Escape', Tab: 'Tab', 'Shift+Tab': 'BTab', Up: 'Up', Down: 'Down' };

function isDialogKey(key: string): key is DialogKey {
  return Object.hasOwn(TMUX_KEYS, key);
}

/**
 * Dialogs answered by keys: ExitPlanMode (Claude does not obey the hook's answer there), and
 * every screen Claude waits on that no held hook stands for: offers and notices at startup, the
 * folder trust prompt, pickers, a permission dialog whose approval expired or was shown before
 * the agent started. They are read off the pane (screen-reader.ts), offered as approvals of
 * their own, answered by the keys their options name, and settled as answered in the terminal
 * when they leave the screen by other hands.
 */
export class PaneDialogs implements Disposable {
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private polls = 0;
  private readonly shown = new Map<string, Shown>();
  /**
   * Tabs whose plan is being offered: the look at the screen and the transcript takes a moment,
   * and meanwhile the tab waits with no approval open, which the poll would otherwise offer as
   * a second card for the same dialog.
   */
  private readonly offering = new Set<string>();
  /**
   * Tabs whose dialog is being answered by keys: its approval is settled as the keys start, and
   * the dialog stays drawn until they are taken, which the poll would offer again.
   */
  private readonly answering = new Set<string>();
  /** When a dialog of each tab was last answered from here, for the follow-up rule. */
  private readonly answeredAt = new Map<string, number>();

  constructor(
    private readonly panes: DialogPanes,
    private readonly approvals: ApprovalStore,
    private readonly statuses: () => Record<string, TabStatus>,
    private readonly log: Logger,
    /** The plan Claude asks to carry out, read from the tab's transcript, when it can be. */
    private readonly planOf: (tabId: string) => Promise<string | null> = async () => null,
    private readonly timings: PaneDialogTimings = PANE_DIALOG_TIMINGS,
    private readonly now: () => number = Date.now,
    /** What a session's footer said its permission mode is, at each look that saw its prompt. */
    private readonly modeSeen: (tabId: string, mode: ClaudeMode) => void = () => undefined,
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

  /** What a tab's screen shows now, or null when there is no pane to read. */
  async read(tabId: string): Promise<ScreenReading | null> {
    try {
      return readScreen(await this.panes.screen(tabId));
    } catch {
      return null;
    }
  }

  /**
   * Whether typed text would land in a dialog: one is open as an approval, or a readable one is
   * on the screen (drawn a moment ago, not offered yet). Text from a device is refused then.
   */
  async dialogShown(tabId: string): Promise<boolean> {
    if (this.approvals.forTab(tabId).length > 0) return true;
    return (await this.read(tabId))?.kind === 'dialog';
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
    const deadline = this.now() + this.timings.drawTimeoutMs;
    let reading = await this.read(request.tabId);
    while (reading?.kind !== 'dialog' && this.now() < deadline) {
      await sleep(this.timings.keyRetryMs / 2);
      reading = await this.read(request.tabId);
    }
    // ExitPlanMode's hook input is empty in 2.1.332: the plan is in the transcript.
    const plan = request.kind === 'plan' && request.summary.body === null ? await this.planOf(request.tabId).catch(() => null) : null;
    const summary = plan ? { ...request.summary, body: cardText(plan, SUMMARY_LIMITS.plan) } : request.summary;
    const dialog = reading?.kind === 'dialog' ? reading : null;
    const approval = this.approvals.add({ ...request, summary, options: dialog?.dialog.options ?? [] }, null);
    if (approval && dialog) this.shown.set(approval.id, { fingerprint: readingFingerprint(dialog), reading: dialog });
    return approval;
  }

  /**
   * Answers with the keys the option names, and for a dialog that was read, until it is gone.
   * Before each key the screen is read again, so a key is never typed into whatever replaced it.
   */
  async answer(approval: Approval, option: string, toolInput: Record<string, unknown> = {}): Promise<void> {
    this.answering.add(approval.tabId);
    try {
      if (approval.kind === 'block') await this.answerBlock(approval, option, toolInput);
      else await this.answerByKeys(approval, option);
    } finally {
      this.answering.delete(approval.tabId);
      this.answeredAt.set(approval.tabId, this.now());
    }
  }

  /**
   * A block: dismissed, nothing typed; or retried through Claude's own list of blocked calls,
   * only while Claude waits at an empty prompt: a turn going on would take the keys, so the
   * retry waits for it to end (a block comes mid-turn, and Retry is often tapped at once).
   */
  private async answerBlock(approval: Approval, option: string, toolInput: Record<string, unknown>): Promise<void> {
    if (option !== 'retry') return;
    const turnEnd = this.now() + this.timings.turnEndMs;
    while (this.statuses()[approval.tabId]?.state === 'busy') {
      if (this.now() > turnEnd) throw new Error('Claude is still busy: retry once its turn has ended');
      await sleep(this.timings.keyRetryMs);
    }
    await retryBlocked(this.panes, { tabId: approval.tabId, toolInput }, { stepMs: this.timings.keyRetryMs, timeoutMs: this.timings.keyTimeoutMs }, this.now);
  }

  private async answerByKeys(approval: Approval, option: string): Promise<void> {
    const first = await this.read(approval.tabId);
    if (!first || first.kind === 'prompt') throw new Error('the dialog is no longer on the screen');
    const shown = this.shown.get(approval.id) ?? { fingerprint: readingFingerprint(first), reading: first };
    if (readingFingerprint(first) !== shown.fingerprint) throw new Error('another dialog is on the screen now');
    const tabId = approval.tabId;
    // A screen that was not read takes the one key, once: what it does there is not known.
    if (shown.reading.kind === 'unknown') return this.press(tabId, option);
    const dialog = shown.reading.dialog;
    if (dialog.style === 'select' && !isDialogKey(option)) return this.choose(tabId, shown.fingerprint, option);
    await this.untilGone(tabId, shown.fingerprint, () => this.press(tabId, option));
  }

  /** A key of DIALOG_OPTION_KEYS by its tmux name; anything else (a digit) is typed. */
  private async press(tabId: string, key: string): Promise<void> {
    if (isDialogKey(key)) await this.panes.pressKey(tabId, TMUX_KEYS[key]);
    else await this.panes.sendInput(tabId, key, false);
  }

  private async untilGone(tabId: string, fingerprint: string, send: () => Promise<void>): Promise<void> {
    const deadline = this.now() + this.timings.keyTimeoutMs;
    for (;;) {
      await send();
      await sleep(this.timings.keyRetryMs);
      const now = await this.read(tabId);
      if (!now || readingFingerprint(now) !== fingerprint) return;
      if (this.now() > deadline) throw new Error('the dialog did not take the answer');
    }
  }

  /**
   * A select list has no digits: the cursor is moved onto the option one key at a time, each
   * move seen on the screen before the next (the first keys can be dropped), then Enter until
   * the dialog is gone.
   */
  private async choose(tabId: string, fingerprint: string, option: string): Promise<void> {
    const target = Number(option);
    const deadline = this.now() + this.timings.keyTimeoutMs;
    for (;;) {
      const now = await this.read(tabId);
      if (!now || readingFingerprint(now) !== fingerprint || now.kind !== 'dialog') throw new Error('the dialog left the screen before the answer was chosen');
      const at = Number(now.dialog.selected);
      if (at === target) break;
      if (this.now() > deadline) throw new Error('the dialog did not move to the answer');
      await this.panes.pressKey(tabId, at < target ? 'Down' : 'Up');
      await sleep(this.timings.keyRetryMs);
    }
    await this.untilGone(tabId, fingerprint, () => this.panes.pressKey(tabId, 'Enter'));
  }

  /** One look at the tabs that may show a dialog no hook stands for. */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const everyTab = this.polls++ % this.timings.quietLookEvery === 0;
    try {
      for (const [tabId, status] of Object.entries(this.statuses())) {
        if (this.offering.has(tabId) || this.answering.has(tabId)) continue;
        const open = this.approvals.forTab(tabId);
        const byKeys = open.filter((a) => a.kind === 'plan' || a.kind === 'dialog');
        if (byKeys.length > 0) await this.settleGone(tabId, byKeys);
        else if (open.length === 0 && status.claudeRunning && (everyTab || status.state === 'needs-input' || this.now() - status.since < this.timings.recentMs)) {
          await this.offerFound(tabId);
        }
      }
    } catch (err) {
      this.log.warn('could not look for dialogs on screen', { error: (err as Error).message });
    } finally {
      this.polling = false;
    }
  }

  /** A dialog answered in the terminal (or gone with Claude): its card goes. */
  private async settleGone(tabId: string, byKeys: Approval[]): Promise<void> {
    const reading = await this.read(tabId);
    const onScreen = reading ? readingFingerprint(reading) : null;
    for (const approval of byKeys) {
      const expected = this.shown.get(approval.id)?.fingerprint;
      if (expected !== undefined && expected !== onScreen) this.approvals.settle(approval.id, 'answered-in-terminal', { kind: 'terminal', name: null });
    }
  }

  private async offerFound(tabId: string): Promise<void> {
    const first = await this.read(tabId);
    if (first?.kind === 'prompt' && first.mode !== null) this.modeSeen(tabId, first.mode);
    if (!first || !offerable(first)) return;
    // A dialog just answered in the terminal can still be on the screen for a moment after its
    // hook's approval was settled (claude has not redrawn yet), and a screen being drawn is
    // neither prompt nor dialog for a moment: only what is still there, the same, a key-retry
    // later is offered.
    await sleep(this.timings.keyRetryMs);
    const reading = await this.read(tabId);
    if (!reading || !offerable(reading) || readingFingerprint(reading) !== readingFingerprint(first)) return;
    // A plan's offer, or another look, may have begun meanwhile; or Claude went.
    if (this.offering.has(tabId) || this.answering.has(tabId) || this.approvals.forTab(tabId).length > 0) return;
    const status = this.statuses()[tabId];
    if (!status?.claudeRunning) return;
    // Waiting already (a dialog seen before an agent restart, an approval that expired): the
    // person was told then. Right after an answer from here: this follows from it.
    const quiet = status.state === 'needs-input' || this.now() - (this.answeredAt.get(tabId) ?? Number.NEGATIVE_INFINITY) < this.timings.followUpMs;
    const approval = this.approvals.add(dialogRequest(tabId, status.sessionId, reading), null, { quiet });
    if (!approval) return;
    this.shown.set(approval.id, { fingerprint: readingFingerprint(reading), reading });
    this.log.info('offered a dialog read from the screen', { tabId, id: approval.id, read: reading.kind === 'dialog' ? reading.dialog.style : 'unknown', options: approval.options.length });
  }
}

/** A dialog, or a screen with lines that is neither prompt nor a dialog read. */
function offerable(reading: ScreenReading): reading is Exclude<ScreenReading, { kind: 'prompt' }> {
  return reading.kind === 'dialog' || (reading.kind === 'unknown' && reading.lines.length > 0);
}

function dialogRequest(tabId: string, sessionId: string | null, reading: Exclude<ScreenReading, { kind: 'prompt' }>): ApprovalRequest {
  const read = reading.kind === 'dialog' ? reading.dialog : null;
  const options: DialogOption[] = read ? read.options : [...UNKNOWN_SCREEN_KEYS];
  return {
    tabId,
    sessionId,
    kind: 'dialog',
    tool: null,
    summary: {
      title: cardText(read?.title || 'Claude is waiting on a screen of its own', SUMMARY_LIMITS.title, true),
      description: read?.text ? cardText(read.text, SUMMARY_LIMITS.description) : null,
      body: reading.kind === 'unknown' ? cardText(reading.lines.join('\n'), SUMMARY_LIMITS.body) : null,
      diff: null,
      path: null,
    },
    questions: [],
    options,
    alwaysAllow: null,
    toolInput: {},
    questionKeys: [],
    suggestions: [],
  };
}
