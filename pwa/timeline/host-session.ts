import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { TabView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';

/** What the timeline's composer needs to know of its session, beside the timeline itself. */
export interface SessionFacts {
  status: TabStatus | undefined;
  tab: TabView | undefined;
  outside: OutsideSessionView | undefined;
}

/** The tab screen (`pm-terminal-view`) as this reads it: the same three facts, as its properties. */
type SessionScreen = ReactiveControllerHost & HTMLElement & Partial<SessionFacts>;

function isSessionScreen(el: Element | undefined): el is SessionScreen {
  return !!el && 'addController' in el && 'status' in el && 'tab' in el && 'outside' in el;
}

/**
 * The tab screen renders the timeline with its id alone; this follows the status, tab and
 * outside session that screen is given, redrawing the timeline as they change (a controller
 * on that screen, told after each of its updates). A screen that binds them to the timeline
 * itself makes this redundant, never wrong: both set the same values.
 */
export class HostSessionFeed implements ReactiveController {
  private host: SessionScreen | null = null;

  constructor(
    private readonly view: HTMLElement,
    private readonly apply: (facts: SessionFacts) => void,
  ) {}

  attach(): void {
    this.detach();
    const root = this.view.getRootNode();
    const host = root instanceof ShadowRoot ? root.host : undefined;
    if (!isSessionScreen(host)) return;
    this.host = host;
    host.addController(this);
    this.hostUpdated();
  }

  detach(): void {
    this.host?.removeController(this);
    this.host = null;
  }

  hostUpdated(): void {
    const h = this.host;
    if (h) this.apply({ status: h.status, tab: h.tab, outside: h.outside });
  }
}
