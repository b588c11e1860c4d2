/**
 * Prompts sent from a phone, so that Claude hears of it with that prompt and no other: a
 * device that opted in sends its text marked `phone`, the text is noted under its session, and
 * the UserPromptSubmit hook whose prompt is that text takes the note and answers with
 * `additionalContext`. A prompt typed at the keyboard meanwhile matches no note.
 */

/** What Claude is told beside a prompt sent from a phone. */
export const PHONE_CONTEXT =
  'The person sent this prompt from a phone and reads your answer on a small screen: answer briefly, avoid wide tables, and keep code in short blocks.';

export interface PhonePromptLimits {
  /** Notes kept per session: prompts sent one after another before Claude took the first. */
  perSession: number;
  /** Sessions with notes at once; the one noted least recently goes first. */
  sessions: number;
  /** A note not taken by then is dropped: that prompt was not submitted as sent. */
  ttlMs: number;
}

export const PHONE_PROMPT_LIMITS: PhonePromptLimits = { perSession: 8, sessions: 256, ttlMs: 120_000 };

interface Note {
  text: string;
  at: number;
}

export class PhonePrompts {
  private readonly notes = new Map<string, Note[]>();

  constructor(
    private readonly limits: PhonePromptLimits = PHONE_PROMPT_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /** A prompt a phone sent to a session. */
  note(key: string, text: string): void {
    const kept = this.fresh(key);
    kept.push({ text: text.trim(), at: this.now() });
    while (kept.length > this.limits.perSession) kept.shift();
    // Re-inserted last: the map's order is the order sessions were noted in.
    this.notes.delete(key);
    this.notes.set(key, kept);
    while (this.notes.size > this.limits.sessions) {
      const oldest = this.notes.keys().next().value as string;
      this.notes.delete(oldest);
    }
  }

  /** Whether `prompt` is one a phone sent to this session; the note is taken, so it counts once. */
  take(key: string, prompt: string): boolean {
    const kept = this.fresh(key);
    const at = kept.findIndex((n) => n.text === prompt.trim());
    if (at >= 0) kept.splice(at, 1);
    if (kept.length === 0) this.notes.delete(key);
    return at >= 0;
  }

  private fresh(key: string): Note[] {
    const since = this.now() - this.limits.ttlMs;
    return (this.notes.get(key) ?? []).filter((n) => n.at >= since);
  }
}
