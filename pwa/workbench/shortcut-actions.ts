import type { WorkspaceView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { type Route, router, type TabViewMode, tabViewPath } from '../core/router.js';
import { type AppShortcut, listenForAppShortcuts } from './app-shortcuts.js';
import { stepTab, tabOrder } from './tab-order.js';
import type { Workbench } from './workbench.js';

/** What the app shows, as the shortcuts need it. */
export interface AppScreens {
  /** Whether the device may use the agent now. */
  active(): boolean;
  workspaces(): readonly WorkspaceView[];
  outside(): readonly OutsideSessionView[];
  route(): Route;
  /** The desktop split, while it shows. */
  workbench(): Workbench | null;
  /** The session list: the home screen, or the sidebar beside the split. */
  sidebar(): { focusRow(tabId: string | null): void } | null;
  /** The bell's job: the inbox, from its top. */
  showInbox(): void;
}

function openTab(app: AppScreens, tabId: string): void {
  // A tab already in a pane comes back with the view it shows there.
  const view: TabViewMode = app.workbench()?.panes.find((p) => p.tabId === tabId)?.view ?? 'terminal';
  // From the list, a history step (back returns to it); between tabs, none (router.go).
  router.go(tabViewPath(tabId, view));
}

/** Into the list: the row of the tab on screen, else the list's first control. */
function focusSidebar(app: AppScreens): void {
  const route = app.route();
  app.sidebar()?.focusRow(route.name === 'terminal' ? route.tabId : null);
}

async function openHelp(): Promise<void> {
  const { showShortcutsSheet } = await import('./shortcuts-sheet.js');
  showShortcutsSheet();
}

export function runAppShortcut(shortcut: AppShortcut, app: AppScreens): void {
  const order = tabOrder(app.workspaces(), app.outside());
  const route = app.route();
  const current = route.name === 'terminal' ? route.tabId : null;
  switch (shortcut.action) {
    case 'next-tab':
    case 'previous-tab': {
      const next = stepTab(order, current, shortcut.action === 'next-tab' ? 1 : -1);
      if (next && next !== current) openTab(app, next);
      return;
    }
    case 'tab': {
      const id = order[(shortcut.n ?? 1) - 1];
      if (id && id !== current) openTab(app, id);
      return;
    }
    case 'inbox':
      app.showInbox();
      return;
    case 'sidebar':
      if (!app.workbench() && route.name !== 'list') router.toList();
      // The list may be hidden under the tab's screen until the route has changed.
      requestAnimationFrame(() => focusSidebar(app));
      return;
    case 'help':
      void openHelp();
      return;
  }
}

/** Starts the app's keys; the returned function stops them. */
export function installAppShortcuts(app: AppScreens): () => void {
  return listenForAppShortcuts({ active: () => app.active(), onShortcut: (s) => runAppShortcut(s, app) });
}
