import { setTimeout as sleep } from 'node:timers/promises';
import { type Approval, type DialogOption, isUnreadScreen } from '../../protocol/approvals.js';
import type { ClaudeMode } from '../../protocol/claude-mode.js';
import type { TabStatus } from '../../protocol/status.js';
import type { NamedKey } from '../tmux/commands.js';
import { cardText } from '../util/card-text.js';
import type { Disposable } from '../util/disposable.js';
import type { Logger } from '../util/log.js';
import type { AddOptions, ApprovalRequest, ApprovalStore } from './approval-store.js';
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
  /**
   * When the pane of each of `tabIds` was last written to, in whole seconds of the wall clock,
   * asked of each tmux server at once: far cheaper than reading every screen. A tab left out
   * is unknown. Without this, every look reads the screen.
   */
  activity?(tabIds: readonly string[]): Promise<Map<string, number>>;
  /** How the screen of `tabId` is read: its agent CLI's reader (Codex's, Claude's). Claude's without this. */
  readerOf?(tabId: string): (screen: string) => ScreenReading;
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
  /**
   * A screen is read only when its pane was written to since the poll last read it; every this
   * many polls each one due a look is read regardless, so nothing is missed for good (a clock
   * set back, a pane the listing could not place).
   */
  blindLookEvery: number;
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
  blindLookEvery: 60,
  followUpMs: 10_000,
  turnEndMs: 60_000,
};

/** What a key-answered approval looked like on screen when offered: to answer it, and to know when it is gone. */
interface Shown {
  fingerprint: string;
  reading: Exclude<ScreenReading, { kind: 'prompt' }>;
}

/** A poll's read of a tab's screen: when it began, and the tab's status then. */
interface Look {
  at: number;
  status: string;
}

/** What of a status decides whether, and how, a tab's screen is looked at. */
function statusStamp(status: TabStatus): string {
  return `${status.state} ${status.since} ${status.claudeRunning}`;
}

/** The last key-answered approval of a tab answered from here. */
interface Answer {
  at: number;
  approval: Approval;
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
  /** The dialog of each tab last answered from here, and when: for the follow-up rule. */
  private readonly answered = new Map<string, Answer>();
  /**
   * The poll's last read of each tab's screen, while what it saw there still decides the
   * next look: a pane not written to since, under the same status, shows the same.
   */
  private readonly looked = new Map<string, Look>();
  /** Counts the times a look was made stale (see `invalidate`): a read that began before one is not kept. */
  private invalidations = 0;

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
      // What the poll saw of the tab's screen was judged with this approval open, or not.
      if (msg.type === 'approval-resolved') {
        this.shown.delete(msg.resolution.id);
        this.invalidate(msg.resolution.tabId);
      } else this.invalidate(msg.approval.tabId);
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

  /** What the poll saw of the tab's screen no longer decides its next look: it is read again. */
  private invalidate(tabId: string): void {
    this.looked.delete(tabId);
    this.invalidations++;
  }

  /** Keeps a poll's read of the tab's screen, unless something made it stale while it was read. */
  private keepLook(tabId: string, look: Look, invalidations: number): void {
    if (this.invalidations === invalidations) this.looked.set(tabId, look);
  }

  /** A tab or session gone: nothing of it is kept. */
  forget(tabId: string): void {
    this.answered.delete(tabId);
    this.looked.delete(tabId);
  }

  /** What a tab's screen shows now, or null when there is no pane to read. */
  async read(tabId: string): Promise<ScreenReading | null> {
    try {
      const read = this.panes.readerOf?.(tabId) ?? readScreen;
      return read(await this.panes.screen(tabId));
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
   * Offers a dialog a hook told of (a plan's; Codex's, once its hook was let go) once it is
   * drawn, with the options read from the screen. When it cannot be read the card still comes,
   * with no options, and says to use the terminal. `quiet`: offered, not pushed.
   */
  async offer(request: ApprovalRequest, options: Pick<AddOptions, 'quiet'> = {}): Promise<Approval | null> {
    this.offering.add(request.tabId);
    try {
      return await this.offerDrawn(request, options);
    } finally {
      this.offering.delete(request.tabId);
    }
  }

  private async offerDrawn(request: ApprovalRequest, options: Pick<AddOptions, 'quiet'>): Promise<Approval | null> {
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
    const approval = this.approvals.add({ ...request, summary, options: dialog?.dialog.options ?? [] }, null, options);
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
      this.answered.set(approval.tabId, { at: this.now(), approval });
      this.invalidate(approval.tabId);
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

  /**
   * One look at the tabs that may show a dialog no hook stands for: one question to tmux for
   * when their panes were written to, then a read of each screen that may have changed.
   */
  async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const poll = this.polls++;
    const everyTab = poll % this.timings.quietLookEvery === 0;
    const blind = poll % this.timings.blindLookEvery === 0;
    try {
      const due = Object.entries(this.statuses())
        .filter(([tabId, status]) => this.lookDue(tabId, status, everyTab) !== null)
        .map(([tabId]) => tabId);
      if (due.length === 0) return;
      const written = blind ? null : await this.writtenAt(due);
      for (const tabId of due) {
        // Earlier looks take time: what is due is asked again.
        const status = this.statuses()[tabId];
        const look = status ? this.lookDue(tabId, status, everyTab) : null;
        if (!status || look === null || (written !== null && !this.mayHaveChanged(tabId, status, written.get(tabId)))) continue;
        if (look === 'find') await this.offerFound(tabId, status);
        else await this.settleGone(tabId, status, look);
      }
    } catch (err) {
      this.log.warn('could not look for dialogs on screen', { error: (err as Error).message });
    } finally {
      this.polling = false;
    }
  }

  /**
   * What a look at the tab would do now: see whether the dialogs of its key-answered approvals
   * are gone, look for a dialog (a tab whose status changed lately, or that waits, each poll;
   * the others on every tab's poll), or nothing.
   */
  private lookDue(tabId: string, status: TabStatus, everyTab: boolean): Approval[] | 'find' | null {
    if (this.offering.has(tabId) || this.answering.has(tabId)) return null;
    const open = this.approvals.forTab(tabId);
    const byKeys = open.filter((a) => a.kind === 'plan' || a.kind === 'dialog');
    if (byKeys.length > 0) return byKeys;
    if (open.length === 0 && status.claudeRunning && (everyTab || status.state === 'needs-input' || this.now() - status.since < this.timings.recentMs)) return 'find';
    return null;
  }

  /** When each pane was last written to, or null to read every screen (none can be told apart). */
  private async writtenAt(tabIds: readonly string[]): Promise<Map<string, number> | null> {
    if (!this.panes.activity) return null;
    try {
      return await this.panes.activity(tabIds);
    } catch (err) {
      this.log.debug('could not ask tmux when the panes were written to; reading every screen', { error: (err as Error).message });
      return null;
    }
  }

  /**
   * Whether the tab's screen may show something else than at the poll's last read: its pane
   * was written to since, or its status moved, or it was never read. tmux tells whole seconds,
   * so a write in the second the read began counts as after it.
   */
  private mayHaveChanged(tabId: string, status: TabStatus, writtenAt: number | undefined): boolean {
    const look = this.looked.get(tabId);
    if (!look || writtenAt === undefined || look.status !== statusStamp(status)) return true;
    return writtenAt >= Math.floor(look.at / 1000);
  }

  /** A dialog answered in the terminal (or gone with Claude): its card goes. */
  private async settleGone(tabId: string, status: TabStatus, byKeys: Approval[]): Promise<void> {
    const look: Look = { at: this.now(), status: statusStamp(status) };
    const invalidations = this.invalidations;
    const reading = await this.read(tabId);
    this.keepLook(tabId, look, invalidations);
    const onScreen = reading ? readingFingerprint(reading) : null;
    for (const approval of byKeys) {
      const expected = this.shown.get(approval.id)?.fingerprint;
      if (expected !== undefined && expected !== onScreen) this.approvals.settle(approval.id, 'answered-in-terminal', { kind: 'terminal', name: null });
    }
  }

  private async offerFound(tabId: string, lookedWith: TabStatus): Promise<void> {
    const look: Look = { at: this.now(), status: statusStamp(lookedWith) };
    const invalidations = this.invalidations;
    const first = await this.read(tabId);
    if (first?.kind === 'prompt' && first.mode !== null) this.modeSeen(tabId, first.mode);
    if (!first || !offerable(first)) {
      this.keepLook(tabId, look, invalidations);
      return;
    }
    // A dialog just answered in the terminal can still be on the screen for a moment after its
    // hook's approval was settled (claude has not redrawn yet), and a screen being drawn is
    // neither prompt nor dialog for a moment: only what is still there, the same, a key-retry
    // later is offered.
    await sleep(this.timings.keyRetryMs);
    const reading = await this.read(tabId);
    // Changed meanwhile: written to after the look began, so the next poll reads it again.
    if (!reading || !offerable(reading) || readingFingerprint(reading) !== readingFingerprint(first)) {
      this.keepLook(tabId, look, invalidations);
      return;
    }
    // A plan's offer, or another look, may have begun meanwhile; or Claude went. What was seen
    // is offered once they are done, read again then.
    if (this.offering.has(tabId) || this.answering.has(tabId) || this.approvals.forTab(tabId).length > 0) return;
    const status = this.statuses()[tabId];
    if (!status?.claudeRunning) return;
    // Waiting already (a dialog seen before an agent restart, an approval that expired): the
    // person was told then. Right after an answer from here: this follows from it, and the
    // next screen of one that could not be read takes its card's place.
    const answer = this.answered.get(tabId);
    const followsAnswer = answer !== undefined && this.now() - answer.at < this.timings.followUpMs;
    const quiet = status.state === 'needs-input' || followsAnswer;
    const follows = followsAnswer && isUnreadScreen(answer.approval) ? answer.approval : null;
    const approval = this.approvals.add(dialogRequest(tabId, status.sessionId, reading, follows), null, { quiet, ...(follows ? { createdAt: follows.createdAt } : {}) });
    if (!approval) return;
    // Offering it made the look stale (approval-opened); what it saw is this approval's now.
    this.looked.set(tabId, look);
    this.shown.set(approval.id, { fingerprint: readingFingerprint(reading), reading });
    this.log.info('offered a dialog read from the screen', { tabId, id: approval.id, read: reading.kind === 'dialog' ? reading.dialog.style : 'unknown', options: approval.options.length });
  }
}

/** A dialog, or a screen with lines that is neither prompt nor a dialog read. */
function offerable(reading: ScreenReading): reading is Exclude<ScreenReading, { kind: 'prompt' }> {
  return reading.kind === 'dialog' || (reading.kind === 'unknown' && reading.lines.length > 0);
}

function dialogRequest(tabId: string, sessionId: string | null, reading: Exclude<ScreenReading, { kind: 'prompt' }>, follows: Approval | null): ApprovalRequest {
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
    ...(follows ? { follows: follows.id } : {}),
  };
}
