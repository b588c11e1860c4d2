import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { HistoryState } from '../terminal/history-text.js';
import type { Finder } from '../terminal/terminal-finder.js';
import type { TerminalSession } from '../terminal/terminal-session.js';

/** What find asks of the tab screen that holds it. */
export interface FindHost extends ReactiveControllerHost {
  /** The terminal on screen, or null while none is attached. */
  readonly terminal: TerminalSession | null;
  /** On a phone, focus would pop the keyboard up over the screen. */
  readonly touch: boolean;
  /** Find is about to open: what shares its place gives way. */
  findOpening(): void;
  /** Gives the find bar, once rendered, the keyboard. */
  focusFindBar(): Promise<void>;
}

/**
 * Find in a tab's terminal. The screen holds no history of its own: opening find fetches the
 * pane's and lays it over the terminal, and closing it goes back to the live screen.
 */
export class FindController implements ReactiveController {
  open = false;
  /** While find is open, how the pane's history it searches stands (history-snapshot.ts). */
  historyState: HistoryState | null = null;
  /** The snapshot of that history, searched in place of the screen. */
  historyFinder: Finder | null = null;

  constructor(private readonly host: FindHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  async show(): Promise<void> {
    const session = this.host.terminal;
    if (!session) return;
    this.host.findOpening();
    if (!this.open) {
      this.historyFinder = session.openHistory((state) => {
        if (this.host.terminal !== session) return;
        this.historyState = state;
        this.host.requestUpdate();
      });
    }
    this.open = true;
    this.host.requestUpdate();
    await this.host.updateComplete;
    await this.host.focusFindBar();
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    const session = this.host.terminal;
    session?.finder.clear();
    session?.closeHistory();
    this.historyFinder = null;
    this.historyState = null;
    session?.scrollToBottom();
    if (!this.host.touch) session?.focus();
    this.host.requestUpdate();
  }

  toggle(): void {
    if (this.open) this.close();
    else void this.show();
  }

  /** Forgets find without touching the terminal: it is going away, or starting over. */
  reset(): void {
    this.open = false;
    this.host.requestUpdate();
  }
}
