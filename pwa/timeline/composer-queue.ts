/**
 * The composer's rules that need no screen: what a prompt becomes before it is typed into the
 * pane, when Claude is in a turn, and the one prompt that waits for the turn to end.
 */
import type { ClaudeState } from '../../protocol/status.js';

/**
 * The text to type into the pane for what the person wrote, or '' when there is nothing to
 * send. Lines end in LF (Claude's input takes it as a new line, not as Enter); a tab, which
 * Claude's input swallows, becomes spaces; other control characters, which a terminal would
 * act on, are left out; blank lines around it are trimmed.
 */
export function promptText(raw: string): string {
  return raw
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '')
    .replace(/^\s*\n/, '')
    .trimEnd();
}

/** Claude is in a turn: working, or waiting on the person's answer to a permission or a question. */
export function inTurn(state: ClaudeState | undefined): boolean {
  return state === 'busy' || state === 'needs-input';
}

/** A turn is over and Claude takes a prompt: what the terminal would do with one typed after the turn. */
export function takesPrompt(state: ClaudeState | undefined): boolean {
  return state === 'idle' || state === 'ready-for-review';
}

export type QueueOutcome = { kind: 'queued' } | { kind: 'refused'; reason: string };

/** Said when a second prompt is offered while one waits. */
export const QUEUE_FULL = 'A prompt is queued already. Cancel it to queue this one instead, or send this one once the turn ends.';

/**
 * At most one prompt waiting for Claude's turn to end. A second one is refused (it stays in
 * the field), never silently put in the first one's place.
 */
export class PromptQueue {
  private text: string | null = null;

  get queued(): string | null {
    return this.text;
  }

  offer(text: string): QueueOutcome {
    if (this.text !== null) return { kind: 'refused', reason: QUEUE_FULL };
    this.text = text;
    return { kind: 'queued' };
  }

  /** Takes the queued prompt back (Cancel, or Stop: an interrupted turn sends nothing by itself). */
  take(): string | null {
    const text = this.text;
    this.text = null;
    return text;
  }

  /**
   * Called with Claude's state whenever it may have changed: the queued prompt, to be sent now,
   * once the turn has ended (idle, ready for review); null while the turn goes on, while the
   * state is not known, and when nothing waits.
   */
  due(state: ClaudeState | undefined, claudeRunning: boolean): string | null {
    if (this.text === null || !claudeRunning || !takesPrompt(state)) return null;
    return this.take();
  }
}
