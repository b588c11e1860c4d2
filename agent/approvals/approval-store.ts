import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import {
  type Approval,
  type ApprovalOutcome,
  type ApprovalResolution,
  type ApprovalResolver,
  type ApprovalServerMessage,
  claudeWaitsOn,
  GUARDRAIL_RESOLVER,
  NOT_CARRIED_OUT,
} from '../../protocol/approvals.js';
import type { DecisionBody } from '../../protocol/api.js';
import { APPROVAL_HOLD_MAX_MS, DEFAULT_APPROVAL_HOLD_MS } from '../config/config.js';
import { newId } from '../util/ids.js';
import { writeJson } from '../util/json-walk.js';
import type { Logger } from '../util/log.js';
import { type DecisionContext, decide, type HookDecision } from './decision.js';
import type { Disposable } from '../util/disposable.js';

/** What opening an approval needs: what cards show, and what answering Claude needs. */
export type ApprovalRequest = Omit<Approval, 'id' | 'createdAt' | 'expiresAt' | 'denyAt'> & Pick<DecisionContext, 'toolInput' | 'suggestions' | 'questionKeys'>;

/**
 * The PermissionRequest hook request Claude is waiting on. `reply(null)` answers with no
 * decision, which leaves the dialog to the person at the terminal; `resolution` says what
 * settled it, when an approval was opened for it.
 */
export interface HeldHook {
  reply(decision: HookDecision | null, resolution?: ApprovalResolution): void;
}

/**
 * Types a dialog option's key into the tab's pane until the dialog is gone, or carries out a
 * block's answer; `toolInput` is the call the approval is about.
 */
export type KeyAnswerer = (approval: Approval, option: string, toolInput: Record<string, unknown>) => Promise<void>;

export interface ApprovalLimits {
  /** How long a hook is held before the approval expires; under Claude's own hook timeout. */
  holdMs: number;
  /** Approvals open at once, in all and per tab: each one holds a connection of Claude's. */
  maxOpen: number;
  maxPerTab: number;
  /** Resolutions remembered to tell a late decider who answered first. */
  resolutionsKept: number;
  /** Blocks kept open per tab (the newest); an older one beyond it is let go as expired. */
  blocksPerTab: number;
  /** How long a block stays offered: nothing is held, it is only a notice with choices. */
  blockKeptMs: number;
}

export const APPROVAL_LIMITS: ApprovalLimits = {
  holdMs: DEFAULT_APPROVAL_HOLD_MS,
  maxOpen: 256,
  maxPerTab: 32,
  resolutionsKept: 1_000,
  blocksPerTab: 8,
  blockKeptMs: 30 * 60_000,
};

export interface AddOptions {
  /** Offered to every device but pushed to none: told before, or following from an answer. */
  quiet?: boolean;
  /** A workspace's guardrail: denied after `ms` with `message`, instead of left to the terminal. */
  denyAfter?: { ms: number; message: string } | null;
  /** When Claude began asking, when earlier than now: a screen that follows an answered one (see `Approval.follows`). */
  createdAt?: number;
}

export { GUARDRAIL_RESOLVER };

export type DecideResult =
  | { ok: true; resolution: ApprovalResolution }
  | { ok: false; status: 404; error: string }
  | { ok: false; status: 400; error: string }
  | { ok: false; status: 409; error: string; resolution: ApprovalResolution }
  /** A block's answer is being carried out by an earlier decision, or could not be now. */
  | { ok: false; status: 409; error: string; code: typeof NOT_CARRIED_OUT }
  | { ok: false; status: 502; error: string; resolution: ApprovalResolution };

/**
 * A tool input as a short key: inputs can be megabytes (a Write's content), keys are kept a
 * while. Written without recursion: a PostToolUse may carry an input nested far deeper than
 * `JSON.stringify` can write.
 */
function inputKey(input: unknown): string {
  const pieces: string[] = [];
  writeJson(input ?? null, (piece) => pieces.push(piece));
  return createHash('sha256').update(pieces.join('')).digest('base64url');
}

interface OpenApproval {
  approval: Approval;
  context: DecisionContext;
  inputKey: string;
  held: HeldHook | null;
  timer: NodeJS.Timeout;
}

/**
 * Every question Claude has put to the person and not yet had answered. An approval is open
 * until exactly one thing settles it: a decision from a device or the CLI, an answer typed in
 * the terminal, Claude going away, expiry, or the agent stopping. Its held hook is answered
 * once, at that moment, and never again; every later decision learns who settled it and how.
 * Everything here is synchronous up to the reply, so two decisions arriving together are
 * ordered by the event loop and only the first can win.
 */
export class ApprovalStore extends EventEmitter<{ message: [ApprovalServerMessage] }> implements Disposable {
  private readonly open = new Map<string, OpenApproval>();
  private readonly resolved = new Map<string, ApprovalResolution>();
  /** The tool and input each remembered resolution was for, to know its PostToolUse when it comes. */
  private readonly resolvedTools = new Map<string, { tool: string | null; input: string }>();
  /** Blocks whose answer is being carried out: settled only once it was. */
  private readonly acting = new Set<string>();
  private closed = false;

  constructor(
    private readonly log: Logger,
    private readonly limits: ApprovalLimits = APPROVAL_LIMITS,
    private readonly answerByKeys: KeyAnswerer | null = null,
    private readonly now: () => number = Date.now,
  ) {
    super();
  }

  /**
   * Opens an approval, holding `held` until it is settled. Refused (null) past the limits or
   * once the agent is stopping; the caller then answers the hook with no decision at once.
   * See AddOptions for `quiet` and `denyAfter`.
   */
  add(request: ApprovalRequest, held: HeldHook | null, options: AddOptions = {}): Approval | null {
    if (this.closed) return null;
    if (!claudeWaitsOn(request.kind)) this.makeRoomForBlock(request.tabId);
    const perTab = this.allForTab(request.tabId).length;
    if (this.open.size >= this.limits.maxOpen || perTab >= this.limits.maxPerTab) {
      this.log.warn('too many approvals open; this one is left to the terminal', { tabId: request.tabId, open: this.open.size, inTab: perTab });
      return null;
    }
    const now = this.now();
    const createdAt = Math.min(options.createdAt ?? now, now);
    const { toolInput, suggestions, questionKeys, ...shown } = request;
    // A guardrail denies what a held hook would otherwise leave to the terminal; it may wait
    // longer than the usual hold, up to what Claude waits.
    const guard = held !== null && request.kind !== 'plan' && request.kind !== 'dialog' ? (options.denyAfter ?? null) : null;
    const holdMs = guard ? Math.min(guard.ms, APPROVAL_HOLD_MAX_MS) : claudeWaitsOn(request.kind) ? this.limits.holdMs : this.limits.blockKeptMs;
    const expiresAt = now + holdMs;
    // The guardrail of this moment is the one it keeps: one set or changed later does not reach it.
    const approval: Approval = { ...shown, id: newId('ap', 10), createdAt, expiresAt, denyAt: guard ? expiresAt : null, ...(options.quiet ? { quiet: true as const } : {}) };
    const timer = setTimeout(() => (guard ? this.deny(approval.id, guard.message) : this.settle(approval.id, 'expired', { kind: 'agent', name: null })), holdMs);
    timer.unref();
    this.open.set(approval.id, {
      approval,
      context: { kind: request.kind, toolInput, questions: request.questions, questionKeys, suggestions, options: request.options },
      inputKey: inputKey(toolInput),
      held,
      timer,
    });
    this.emit('message', { type: 'approval-opened', approval });
    return approval;
  }

  get(id: string): Approval | undefined {
    return this.open.get(id)?.approval;
  }

  /** Open approvals, oldest first. */
  list(): Approval[] {
    return [...this.open.values()].map((o) => o.approval);
  }

  /** What Claude waits on in a tab: its open approvals but blocks, which only tell what it did not do. */
  forTab(tabId: string): Approval[] {
    return this.list().filter((a) => a.tabId === tabId && claudeWaitsOn(a.kind));
  }

  /** Every open approval of a tab, blocks too. */
  allForTab(tabId: string): Approval[] {
    return this.list().filter((a) => a.tabId === tabId);
  }

  /** Keeps a tab's blocks under their limit: the oldest goes, as the newest tell most. */
  private makeRoomForBlock(tabId: string): void {
    const blocks = this.allForTab(tabId).filter((a) => !claudeWaitsOn(a.kind));
    for (const old of blocks.slice(0, Math.max(0, blocks.length - this.limits.blocksPerTab + 1))) this.settle(old.id, 'expired', { kind: 'agent', name: null });
  }

  /** How an approval was settled, while it is remembered. */
  resolution(id: string): ApprovalResolution | undefined {
    return this.resolved.get(id);
  }

  /**
   * A decision from a device or the CLI. The first valid one settles the approval and answers
   * Claude; a later one gets 409 and the resolution that won.
   */
  async decide(id: string, body: DecisionBody, by: ApprovalResolver): Promise<DecideResult> {
    const entry = this.open.get(id);
    if (!entry) {
      const resolution = this.resolved.get(id);
      if (resolution) return { ok: false, status: 409, error: alreadyResolved(resolution), resolution };
      return { ok: false, status: 404, error: 'no such approval' };
    }
    const result = decide(entry.context, body);
    if (!result.ok) return { ok: false, status: 400, error: result.error };
    if (!claudeWaitsOn(entry.approval.kind)) return this.answerBlock(entry, result.option ?? '', by);
    const resolution = this.finish(entry, result.outcome, by, result.message, result.reply);
    if (result.option !== null) {
      if (!this.answerByKeys) return { ok: false, status: 502, error: 'this dialog cannot be answered from here; use the terminal', resolution };
      try {
        await this.answerByKeys(entry.approval, result.option, entry.context.toolInput);
      } catch (err) {
        this.log.warn('could not answer a dialog by keys', { id, tabId: entry.approval.tabId, error: (err as Error).message });
        return { ok: false, status: 502, error: `the answer could not be typed into the terminal: ${(err as Error).message}`, resolution };
      }
    }
    return { ok: true, resolution };
  }

  /**
   * Nothing waits on a block, so its answer is carried out first and the block settled after:
   * one that could not be (Claude busy, the call gone from its list) stays open, saying why.
   */
  private async answerBlock(entry: OpenApproval, option: string, by: ApprovalResolver): Promise<DecideResult> {
    const { id } = entry.approval;
    if (this.acting.has(id)) return { ok: false, status: 409, error: 'this block is being answered already', code: NOT_CARRIED_OUT };
    this.acting.add(id);
    try {
      if (!this.answerByKeys) return { ok: false, status: 400, error: 'this block cannot be answered from here; use the terminal' };
      await this.answerByKeys(entry.approval, option, entry.context.toolInput);
    } catch (err) {
      this.log.warn('could not answer a block', { id, tabId: entry.approval.tabId, error: (err as Error).message });
      return { ok: false, status: 409, error: (err as Error).message, code: NOT_CARRIED_OUT };
    } finally {
      this.acting.delete(id);
    }
    const now = this.open.get(id);
    if (!now) {
      const resolution = this.resolved.get(id);
      return resolution ? { ok: true, resolution } : { ok: false, status: 404, error: 'no such approval' };
    }
    return { ok: true, resolution: this.finish(now, 'answered', by, null, null) };
  }

  /** A guardrail's decision: denied, by the agent, with the message Claude is told. */
  private deny(id: string, message: string): void {
    const entry = this.open.get(id);
    if (!entry) return;
    const result = decide(entry.context, { decision: 'deny', message });
    if (!result.ok) {
      this.settle(id, 'expired', { kind: 'agent', name: null });
      return;
    }
    this.finish(entry, result.outcome, { kind: 'agent', name: GUARDRAIL_RESOLVER }, result.message, result.reply);
    this.log.info('a guardrail denied what waited unanswered', { id, tabId: entry.approval.tabId });
  }

  /** Settles one approval without a decision (expired, its hook connection gone, ...). */
  settle(id: string, outcome: ApprovalOutcome, by: ApprovalResolver): void {
    const entry = this.open.get(id);
    if (entry) this.finish(entry, outcome, by, null, null);
  }

  /**
   * Claude moved on in a tab (a new prompt, the turn ended, the session ended): whatever it
   * asked there was answered, or is moot. Its blocks stay while Claude runs (a retry is still
   * possible after the turn), and go with it.
   */
  settleTab(tabId: string, outcome: 'answered-in-terminal' | 'claude-exited'): void {
    const by: ApprovalResolver = outcome === 'answered-in-terminal' ? { kind: 'terminal', name: null } : { kind: 'agent', name: null };
    const settled = outcome === 'claude-exited' ? this.allForTab(tabId) : this.forTab(tabId);
    for (const approval of settled) this.settle(approval.id, outcome, by);
  }

  /**
   * A tool ran (or failed) in a tab: the approval that asked for it was answered in the
   * terminal. PermissionRequest carries no tool_use_id, so the tool is matched by name and
   * input; a tool already answered here is its own approval's echo; anything else (the person
   * amended the input in the dialog) settles the oldest open request for that tool. A block
   * of that very call is settled too: it ran after all (retried from the terminal).
   */
  settleTool(tabId: string, tool: string, toolInput: unknown): void {
    const input = inputKey(toolInput);
    for (const ran of [...this.open.values()].filter((o) => o.approval.tabId === tabId && !claudeWaitsOn(o.approval.kind) && o.approval.tool === tool && o.inputKey === input)) {
      this.finish(ran, 'answered-in-terminal', { kind: 'terminal', name: null }, null, null);
    }
    const candidates = [...this.open.values()].filter((o) => o.approval.tabId === tabId && claudeWaitsOn(o.approval.kind) && o.approval.tool === tool);
    if (candidates.length === 0) return;
    const exact = candidates.find((o) => o.inputKey === input);
    if (exact) {
      this.finish(exact, 'answered-in-terminal', { kind: 'terminal', name: null }, null, null);
      return;
    }
    const answeredHere = [...this.resolved.values()].some((r) => {
      const was = this.resolvedTools.get(r.id);
      return r.tabId === tabId && was?.tool === tool && was.input === input;
    });
    const oldest = candidates[0];
    if (!answeredHere && oldest) this.finish(oldest, 'answered-in-terminal', { kind: 'terminal', name: null }, null, null);
  }

  /**
   * The agent stops: every held hook is answered with no decision now, so Claude is never left
   * waiting on a connection that dies with the agent; its dialogs stay in the terminals.
   * Resolves a turn of the event loop later, once the answers are written to their sockets.
   */
  dispose(): Promise<void> {
    this.closed = true;
    for (const entry of [...this.open.values()]) this.finish(entry, 'agent-stopped', { kind: 'agent', name: null }, null, null);
    return new Promise((resolve) => setImmediate(resolve));
  }

  private finish(entry: OpenApproval, outcome: ApprovalOutcome, by: ApprovalResolver, message: string | null, reply: HookDecision | null): ApprovalResolution {
    const { approval } = entry;
    this.open.delete(approval.id);
    clearTimeout(entry.timer);
    const resolution: ApprovalResolution = { id: approval.id, tabId: approval.tabId, outcome, by, at: this.now(), message };
    this.remember(resolution, { tool: approval.tool, input: entry.inputKey });
    try {
      entry.held?.reply(reply, resolution);
    } catch (err) {
      this.log.warn('could not answer a held hook', { id: approval.id, error: (err as Error).message });
    }
    this.emit('message', { type: 'approval-resolved', resolution });
    return resolution;
  }

  private remember(resolution: ApprovalResolution, tool: { tool: string | null; input: string }): void {
    this.resolved.set(resolution.id, resolution);
    this.resolvedTools.set(resolution.id, tool);
    while (this.resolved.size > this.limits.resolutionsKept) {
      const oldest = this.resolved.keys().next().value;
      if (oldest === undefined) break;
      this.resolved.delete(oldest);
      this.resolvedTools.delete(oldest);
    }
  }
}

const OUTCOME_WORDS: Record<ApprovalOutcome, string> = {
  approved: 'approved',
  'approved-always': 'approved (always)',
  denied: 'denied',
  answered: 'answered',
  'answered-in-terminal': 'answered in the terminal',
  'moved-to-terminal': 'moved to the terminal, where its dialog is shown',
  expired: 'expired',
  'claude-exited': 'closed: Claude is no longer waiting',
  'agent-stopped': 'closed: the agent stopped',
};

/** "Already approved by Pixel 8" and the like, for a decision that came second. */
export function alreadyResolved(resolution: ApprovalResolution): string {
  const who = resolution.by.kind === 'device' && resolution.by.name ? ` by ${resolution.by.name}` : resolution.by.kind === 'cli' ? ' from the CLI' : '';
  return `already ${OUTCOME_WORDS[resolution.outcome]}${who}`;
}
