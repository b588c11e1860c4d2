import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { z } from 'zod';
import type { ClaudeSessionsResponse, CreateTabBody, CreateWorkspaceBody, Guardrail, TabView, WorkspaceView } from '../../protocol/api.js';
import { actionsOf } from './action-request.js';
import * as api from './api.js';

/** What the parts of the session list, and a tab's screen, ask of the app. */
export type SessionActionMap = {
  'pm-workspace-create': { detail: CreateWorkspaceBody; result: WorkspaceView };
  'pm-workspace-rename': { detail: { workspaceId: string; name: string }; result: WorkspaceView };
  'pm-workspace-close': { detail: { workspaceId: string }; result: undefined };
  'pm-workspace-guardrail': { detail: { workspaceId: string; guardrail: Guardrail | null }; result: WorkspaceView };
  'pm-claude-sessions': { detail: { workspaceId: string }; result: ClaudeSessionsResponse };
  'pm-tab-create': { detail: z.input<typeof CreateTabBody>; result: TabView };
  'pm-tab-rename': { detail: { tabId: string; name: string }; result: TabView };
  'pm-tab-close': { detail: { tabId: string }; result: undefined };
  /** A Claude started outside pocketmux, by its key, made a Claude tab: resolves with that tab. */
  'pm-outside-adopt': { detail: { key: string }; result: TabView };
};

export const sessionActions = actionsOf<SessionActionMap>();

/**
 * Carries out, through the API client, what the workspace cards, tab rows, outside sessions'
 * rows, sheets and tab screens inside its host ask for. The agent's answer comes back on the
 * sync channel as a new snapshot, so nothing here changes the list itself.
 */
export class SessionActionsController implements ReactiveController {
  private stops: (() => void)[] = [];

  constructor(private readonly host: ReactiveControllerHost & EventTarget) {
    host.addController(this);
  }

  hostConnected(): void {
    const on = this.host;
    this.stops = [
      sessionActions.answer(on, 'pm-workspace-create', (body) => api.createWorkspace(body)),
      sessionActions.answer(on, 'pm-workspace-rename', ({ workspaceId, name }) => api.renameWorkspace(workspaceId, name)),
      sessionActions.answer(on, 'pm-workspace-close', ({ workspaceId }) => api.closeWorkspace(workspaceId)),
      sessionActions.answer(on, 'pm-workspace-guardrail', ({ workspaceId, guardrail }) => api.setWorkspaceGuardrail(workspaceId, guardrail)),
      sessionActions.answer(on, 'pm-claude-sessions', ({ workspaceId }) => api.claudeSessions(workspaceId)),
      sessionActions.answer(on, 'pm-tab-create', (body) => api.createTab(body)),
      sessionActions.answer(on, 'pm-tab-rename', ({ tabId, name }) => api.renameTab(tabId, name)),
      sessionActions.answer(on, 'pm-tab-close', ({ tabId }) => api.closeTab(tabId)),
      sessionActions.answer(on, 'pm-outside-adopt', ({ key }) => api.adoptOutside(key)),
    ];
  }

  hostDisconnected(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
  }
}
