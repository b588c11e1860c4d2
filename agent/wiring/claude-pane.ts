import type { PaneHistory } from '../../protocol/pane-history.js';
import type { SessionKey } from '../../protocol/session-key.js';
import type { TerminalTarget } from '../terminal/terminal-bridge.js';
import type { NamedKey } from '../tmux/commands.js';

/**
 * The pane a Claude runs in, whichever tmux server holds it: a tab's on pocketmux's own, or an
 * outside session's on the person's. What is typed goes through here, so the two are driven
 * alike; what fails says why in words for the person.
 */
export interface ClaudePane {
  readonly key: SessionKey;
  /** What the pane shows now, as text. */
  screen(): Promise<string>;
  /** Text as if typed, then Enter when `enter`. */
  type(text: string, enter: boolean): Promise<void>;
  sendKey(key: NamedKey): Promise<void>;
  leaveCopyMode(): Promise<void>;
  /** Its scrollback and screen, to look back on. */
  history(): Promise<PaneHistory>;
  exists(): Promise<boolean>;
  /** What a terminal attaches to; rejects when there is none to drive (its reason is the close reason). */
  terminal(): Promise<TerminalTarget>;
}

/** The pane of the session a key names, or null when there is no such session. */
export interface ClaudePanes {
  of(key: string): ClaudePane | null;
}
