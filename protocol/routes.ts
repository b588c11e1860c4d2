/**
 * Every path the agent serves under `/api`, written once: the agent's routers register each
 * route from this table, and the app, its service worker and the CLI call it from here, so a
 * route cannot be renamed on one side only. Imports nothing: the service worker and the app
 * load it without zod.
 */

export const API_PREFIX = '/api';

export interface ApiRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under `/api`, as Express reads it, with at most one `:param` for the resource. */
  path: string;
}

export const API_ROUTES = {
  session: { method: 'GET', path: '/session' },
  pair: { method: 'POST', path: '/pair' },
  pairingTerms: { method: 'GET', path: '/pair' },
  newPairing: { method: 'POST', path: '/pairings' },
  devices: { method: 'GET', path: '/devices' },
  revokeDevice: { method: 'DELETE', path: '/devices/:id' },
  newMachineLink: { method: 'POST', path: '/machine-links' },
  machines: { method: 'GET', path: '/machines' },
  addMachine: { method: 'POST', path: '/machines' },
  renameMachine: { method: 'PATCH', path: '/machines/:id' },
  removeMachine: { method: 'DELETE', path: '/machines/:id' },
  workspaces: { method: 'GET', path: '/workspaces' },
  createWorkspace: { method: 'POST', path: '/workspaces' },
  renameWorkspace: { method: 'PATCH', path: '/workspaces/:id' },
  closeWorkspace: { method: 'DELETE', path: '/workspaces/:id' },
  claudeSessions: { method: 'GET', path: '/workspaces/:id/claude-sessions' },
  tabs: { method: 'GET', path: '/tabs' },
  createTab: { method: 'POST', path: '/tabs' },
  renameTab: { method: 'PATCH', path: '/tabs/:id' },
  closeTab: { method: 'DELETE', path: '/tabs/:id' },
  tabInput: { method: 'POST', path: '/tabs/:id/input' },
  tabKey: { method: 'POST', path: '/tabs/:id/keys' },
  tabMode: { method: 'POST', path: '/tabs/:id/mode' },
  tabCommands: { method: 'GET', path: '/tabs/:id/commands' },
  tabUpload: { method: 'POST', path: '/tabs/:id/uploads' },
  tabHistory: { method: 'GET', path: '/tabs/:id/history' },
  status: { method: 'GET', path: '/status' },
  terminals: { method: 'GET', path: '/terminals' },
  approvals: { method: 'GET', path: '/approvals' },
  decideApproval: { method: 'POST', path: '/approvals/:id' },
  outsideSessions: { method: 'GET', path: '/outside' },
  outsideInput: { method: 'POST', path: '/outside/:key/input' },
  outsideKey: { method: 'POST', path: '/outside/:key/keys' },
  outsideMode: { method: 'POST', path: '/outside/:key/mode' },
  outsideCommands: { method: 'GET', path: '/outside/:key/commands' },
  outsideUpload: { method: 'POST', path: '/outside/:key/uploads' },
  outsideHistory: { method: 'GET', path: '/outside/:key/history' },
  adoptOutside: { method: 'POST', path: '/outside/:key/adopt' },
  changes: { method: 'GET', path: '/changes/:key' },
  fileChanges: { method: 'GET', path: '/changes/:key/file' },
  readFile: { method: 'GET', path: '/changes/:key/read' },
  revertChange: { method: 'POST', path: '/changes/:key/revert' },
  undoRevert: { method: 'POST', path: '/changes/:key/undo' },
  commitChanges: { method: 'POST', path: '/changes/:key/commit' },
  userHooks: { method: 'GET', path: '/hooks' },
  push: { method: 'GET', path: '/push' },
  pushKey: { method: 'GET', path: '/push/key' },
  pushSubscribe: { method: 'POST', path: '/push/subscription' },
  pushUnsubscribe: { method: 'DELETE', path: '/push/subscription' },
  pushSettings: { method: 'PUT', path: '/push/settings' },
  pushTest: { method: 'POST', path: '/push/test' },
} as const satisfies Record<string, ApiRoute>;

/** The WebSocket channels, each upgraded on its own path; the agent's channel table serves these. */
export const CHANNEL_PATHS = {
  status: `${API_PREFIX}/status`,
  sync: `${API_PREFIX}/sync`,
  timeline: `${API_PREFIX}/timeline`,
  terminal: `${API_PREFIX}/terminal`,
} as const;

/** The URL path of a route, its one parameter filled in. */
export function routePath(route: ApiRoute, id?: string): string {
  return `${API_PREFIX}${id === undefined ? route.path : route.path.replace(/:[A-Za-z]+/, encodeURIComponent(id))}`;
}
