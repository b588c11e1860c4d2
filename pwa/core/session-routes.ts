import type { ModeBody, PaneKeyBody, SlashCommandsResponse, TabInputBody } from '../../protocol/api.js';
import type { ModeResponse } from '../../protocol/claude-mode.js';
import { parseSessionKey, type SessionKey } from '../../protocol/session-key.js';
import * as api from './api.js';

/**
 * The API calls that drive one session, chosen once from what its key names: one of
 * pocketmux's tabs goes by the tabs' routes, a Claude started outside pocketmux by the outside
 * routes (its own tmux). Whatever types into a session, presses a key in it, switches its mode,
 * lists its commands, uploads to it or reads its history asks here instead of looking at the key.
 */
export interface SessionRoutes {
  readonly kind: SessionKey['kind'];
  /** Text typed into the session's pane (pasted, then Enter when asked). */
  input(body: TabInputBody): Promise<undefined>;
  /** A key pressed in the session's pane. */
  key(body: PaneKeyBody): Promise<undefined>;
  /** Claude's permission mode switched, as Shift+Tab in its pane does. */
  mode(body: ModeBody): Promise<ModeResponse>;
  /** Claude's slash commands in the session. */
  commands(): Promise<SlashCommandsResponse>;
  /** The pane's scrollback, as the agent captured it. */
  history(signal?: AbortSignal): Promise<unknown>;
  /** Where a file for the session's directory is sent. */
  readonly upload: api.ApiRoute;
}

export function sessionRoutes(key: string): SessionRoutes {
  const session = parseSessionKey(key);
  if (session.kind === 'outside') {
    return {
      kind: 'outside',
      input: (body) => api.outsideInput(session.id, body),
      key: (body) => api.outsideKey(session.id, body),
      mode: (body) => api.outsideMode(session.id, body),
      commands: () => api.outsideCommands(session.id),
      history: (signal) => api.paneHistory(session.id, true, signal),
      upload: api.API_ROUTES.outsideUpload,
    };
  }
  return {
    kind: 'tab',
    input: (body) => api.tabInput(session.id, body),
    key: (body) => api.tabKey(session.id, body),
    mode: (body) => api.tabMode(session.id, body),
    commands: () => api.tabCommands(session.id),
    history: (signal) => api.paneHistory(session.id, false, signal),
    upload: api.API_ROUTES.tabUpload,
  };
}

