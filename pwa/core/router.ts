import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { TAB_PATH } from './tab-key.js';

/** What a tab's full-screen view shows: its terminal, its Claude conversation, or what Claude changed. */
export type TabViewMode = 'terminal' | 'timeline' | 'changes';

export type Route = { name: 'list' } | { name: 'settings' } | { name: 'terminal'; tabId: string; view: TabViewMode };

/** Devices, notifications, theme and Claude's hooks: the page the app and the docs call Settings. */
export const SETTINGS_PATH = '/settings';
/** Where Settings was while it was called Devices: bookmarks and old links still lead there. */
const FORMER_SETTINGS_PATH = '/devices';

export function parseRoute(pathname: string): Route | null {
  if (pathname === '/' || pathname === '') return { name: 'list' };
  if ([SETTINGS_PATH, FORMER_SETTINGS_PATH].some((p) => pathname === p || pathname === `${p}/`)) return { name: 'settings' };
  const m = TAB_PATH.exec(pathname);
  // The view's path segment is its name: `/timeline`, `/changes` (TAB_PATH allows no other).
  return m?.[1] ? { name: 'terminal', tabId: m[1], view: (m[2]?.slice(1) as TabViewMode | undefined) ?? 'terminal' } : null;
}

/** The address a route is shown under: an old one is written as the current one. */
function canonicalPath(pathname: string, route: Route): string {
  return route.name === 'settings' ? SETTINGS_PATH : pathname;
}

export function terminalPath(tabId: string): string {
  return `/t/${encodeURIComponent(tabId)}`;
}

export function tabViewPath(tabId: string, view: TabViewMode): string {
  return view === 'terminal' ? terminalPath(tabId) : `${terminalPath(tabId)}/${view}`;
}

interface HistoryState {
  /** Set on entries pushed from inside the app, so "back" knows the list is behind it. */
  pmInApp?: boolean;
}

/** Path-based routing on the History API; one instance for the page. */
class Router extends EventTarget {
  route: Route = parseRoute(location.pathname) ?? { name: 'list' };

  constructor() {
    super();
    const first = parseRoute(location.pathname);
    if (!first) history.replaceState(history.state, '', '/');
    else if (canonicalPath(location.pathname, first) !== location.pathname) {
      history.replaceState(history.state, '', `${canonicalPath(location.pathname, first)}${location.search}${location.hash}`);
    }
    window.addEventListener('popstate', () => this.sync());
  }

  /**
   * A history step to `path`; except from one tab to another (the sidebar beside the desktop
   * split, a shortcut), which replaces, so "back" leads to the list, not through every tab.
   */
  go(path: string): void {
    if (path === location.pathname) return;
    if (this.route.name === 'terminal' && parseRoute(path)?.name === 'terminal') {
      this.replace(path);
      return;
    }
    history.pushState({ pmInApp: true } satisfies HistoryState, '', path);
    this.sync();
  }

  /**
   * Moves without a history step: within the same screen (terminal ⇄ timeline), so "back"
   * still leads to the list rather than through every switch, or to the list after pairing.
   */
  replace(path: string): void {
    if (path === location.pathname) return;
    history.replaceState(history.state, '', path);
    this.sync();
  }

  /** Back to the list: a real history step when the list is behind us, else a replace. */
  toList(): void {
    if ((history.state as HistoryState | null)?.pmInApp) {
      history.back();
      return;
    }
    history.replaceState(null, '', '/');
    this.sync();
  }

  private sync(): void {
    const next = parseRoute(location.pathname);
    if (!next) {
      history.replaceState(null, '', '/');
      this.route = { name: 'list' };
    } else {
      this.route = next;
    }
    this.dispatchEvent(new Event('change'));
  }
}

export const router = new Router();

/** Re-renders its host whenever the route changes. */
export class RouteController implements ReactiveController {
  private readonly onChange = () => this.host.requestUpdate();

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  get route(): Route {
    return router.route;
  }

  hostConnected(): void {
    router.addEventListener('change', this.onChange);
  }

  hostDisconnected(): void {
    router.removeEventListener('change', this.onChange);
  }
}
