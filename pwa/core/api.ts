import type {
  AdoptBody,
  ClaudeSessionsResponse,
  CreateTabBody,
  CreateWorkspaceBody,
  DecisionBody,
  DevicesResponse,
  Guardrail,
  ModeBody,
  PaneKeyBody,
  PairBody,
  PairingResponse,
  PairingTerms,
  RenameBody,
  SessionResponse,
  SlashCommandsResponse,
  PushSettingsBody,
  PushSubscriptionBody,
  TabInputBody,
  TabView,
  WorkspacePatchBody,
  WorkspaceView,
} from '../../protocol/api.js';
import type { ApprovalResolution } from '../../protocol/approvals.js';
import type { ModeResponse } from '../../protocol/claude-mode.js';
import type { OutsideSessionsResponse } from '../../protocol/outside.js';
import type { PushSettings, PushState } from '../../protocol/push.js';
import type { z } from 'zod';
import { API_ROUTES, type ApiRoute, routePath } from '../../protocol/routes.js';
import { type ApiOptions, type ApiResponse, apiResponse } from './api-request.js';

/** Every REST route and channel path, from the table the agent's routers register. */
export { API_ROUTES, type ApiRoute, CHANNEL_PATHS, routePath } from '../../protocol/routes.js';

function call<T>(route: ApiRoute, id?: string, body?: unknown, options?: ApiOptions): Promise<ApiResponse<T>> {
  return apiResponse<T>(route.method, routePath(route, id), body, options);
}

async function bodyOf<T>(response: Promise<ApiResponse<T>>): Promise<T> {
  return (await response).body;
}

export function session(options?: ApiOptions): Promise<SessionResponse> {
  return bodyOf(call<SessionResponse>(API_ROUTES.session, undefined, undefined, options));
}

export function pair(body: PairBody, options?: ApiOptions): Promise<SessionResponse> {
  return bodyOf(call<SessionResponse>(API_ROUTES.pair, undefined, body, options));
}

/** How long a pairing works: asked by a browser that is not paired, so a 401 here means nothing. */
export function pairingTerms(): Promise<PairingTerms> {
  return bodyOf(call<PairingTerms>(API_ROUTES.pairingTerms, undefined, undefined, { unauthorizedMeansLost: false }));
}

/** With the response headers: the agent's `Date` lets the countdown survive a wrong local clock. */
export function newPairing(): Promise<ApiResponse<PairingResponse>> {
  return call<PairingResponse>(API_ROUTES.newPairing);
}

export function devices(): Promise<DevicesResponse> {
  return bodyOf(call<DevicesResponse>(API_ROUTES.devices));
}

export function revokeDevice(id: string): Promise<void> {
  return bodyOf(call<void>(API_ROUTES.revokeDevice, id));
}

export function createWorkspace(body: CreateWorkspaceBody): Promise<WorkspaceView> {
  return bodyOf(call<WorkspaceView>(API_ROUTES.createWorkspace, undefined, body));
}

export function renameWorkspace(id: string, name: string): Promise<WorkspaceView> {
  return bodyOf(call<WorkspaceView>(API_ROUTES.renameWorkspace, id, { name } satisfies RenameBody));
}

/** What happens to a question of the workspace's tabs nobody answers: null leaves it to the terminal. */
export function setWorkspaceGuardrail(id: string, guardrail: Guardrail | null): Promise<WorkspaceView> {
  return bodyOf(call<WorkspaceView>(API_ROUTES.renameWorkspace, id, { guardrail } satisfies WorkspacePatchBody));
}

export function closeWorkspace(id: string): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.closeWorkspace, id));
}

export function claudeSessions(workspaceId: string): Promise<ClaudeSessionsResponse> {
  return bodyOf(call<ClaudeSessionsResponse>(API_ROUTES.claudeSessions, workspaceId));
}

/** The body as sent, before the agent's defaults: `kind` may be left out for a shell. */
export function createTab(body: z.input<typeof CreateTabBody>): Promise<TabView> {
  return bodyOf(call<TabView>(API_ROUTES.createTab, undefined, body));
}

export function renameTab(id: string, name: string): Promise<TabView> {
  return bodyOf(call<TabView>(API_ROUTES.renameTab, id, { name } satisfies RenameBody));
}

export function closeTab(id: string): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.closeTab, id));
}

/** Text typed into a tab, then Enter unless `enter` is false: the next prompt for its Claude. */
export function tabInput(id: string, body: TabInputBody): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.tabInput, id, body));
}

/** A named key pressed in a tab's pane: Escape interrupts its Claude (the composer's Stop). */
export function tabKey(id: string, body: PaneKeyBody): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.tabKey, id, body));
}

/** The slash commands the Claude of a tab offers: built in, the workspace's and the user's. */
export function tabCommands(id: string): Promise<SlashCommandsResponse> {
  return bodyOf(call<SlashCommandsResponse>(API_ROUTES.tabCommands, id));
}

/**
 * Switches the permission mode of a tab's Claude, by Shift+Tab until its footer shows it: bypass
 * only with `confirm`. Refused with 409 and the agent's words while a dialog is up, or when the
 * session has no such mode (naming the ones it has).
 */
export function tabMode(id: string, body: ModeBody): Promise<ModeResponse> {
  return bodyOf(call<ModeResponse>(API_ROUTES.tabMode, id, body));
}

/**
 * The history and screen of a tab's pane, or of the pane of a Claude started outside pocketmux
 * (by its key), for find (a `PaneHistory`), unchecked: the caller parses it. `signal` lets
 * find, closed before it came, let it go.
 */
export function paneHistory(id: string, outside: boolean, signal?: AbortSignal): Promise<unknown> {
  return bodyOf(call<unknown>(outside ? API_ROUTES.outsideHistory : API_ROUTES.tabHistory, id, undefined, { signal }));
}

/** The Claude sessions started outside pocketmux that report here (the sync channel carries them too). */
export function outsideSessions(): Promise<OutsideSessionsResponse> {
  return bodyOf(call<OutsideSessionsResponse>(API_ROUTES.outsideSessions));
}

/**
 * Text typed into the pane of a Claude started outside pocketmux, then Enter unless `enter` is
 * false. Only one running in tmux has a pane; for any other the agent answers 409 and says why.
 */
export function outsideInput(key: string, body: TabInputBody): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.outsideInput, key, body));
}

/** A named key pressed in the pane of a Claude started outside pocketmux (in tmux only, as its input). */
export function outsideKey(key: string, body: PaneKeyBody): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.outsideKey, key, body));
}

/** The slash commands a Claude started outside pocketmux offers, from its directory. */
export function outsideCommands(key: string): Promise<SlashCommandsResponse> {
  return bodyOf(call<SlashCommandsResponse>(API_ROUTES.outsideCommands, key));
}

/** The same switch for a Claude started outside pocketmux (in tmux only: the keys go to its pane). */
export function outsideMode(key: string, body: ModeBody): Promise<ModeResponse> {
  return bodyOf(call<ModeResponse>(API_ROUTES.outsideMode, key, body));
}

/**
 * Makes a Claude started outside pocketmux a Claude tab of its own: the agent ends that claude
 * and resumes the same conversation in a new tab (of `workspaceId`, else of the workspace of its
 * directory); resolves with the new tab. Refused with 409 and the agent's reason while Claude
 * works or waits on an answer, or when it cannot be done now.
 */
export function adoptOutside(key: string, body: AdoptBody = {}): Promise<TabView> {
  return bodyOf(call<TabView>(API_ROUTES.adoptOutside, key, body));
}

/**
 * Whether Claude's user settings on the agent's machine hold pocketmux's hooks, so Claude
 * started anywhere there reports (a `UserHooksView`), unchecked: the caller parses it.
 */
export function userHooks(): Promise<unknown> {
  return bodyOf(call<unknown>(API_ROUTES.userHooks));
}

/**
 * One decision on an open approval. A decision that came second fails with status 409 and
 * the agent's words for who came first ("already approved by Pixel 8").
 */
export async function decideApproval(id: string, body: DecisionBody): Promise<ApprovalResolution> {
  return (await bodyOf(call<{ resolution: ApprovalResolution }>(API_ROUTES.decideApproval, id, body))).resolution;
}

/** This device's notifications as the agent knows them: its VAPID key, subscribed or not, its choices. */
export function pushState(): Promise<PushState> {
  return bodyOf(call<PushState>(API_ROUTES.push));
}

/** The agent's VAPID public key (base64url), for `pushManager.subscribe`. */
export function pushKey(): Promise<{ publicKey: string }> {
  return bodyOf(call<{ publicKey: string }>(API_ROUTES.pushKey));
}

/** Hands the agent this browser's `PushSubscription.toJSON()`; refused (400) for an endpoint that is no known push service. */
export function pushSubscribe(subscription: PushSubscriptionBody): Promise<{ subscribed: true }> {
  return bodyOf(call<{ subscribed: true }>(API_ROUTES.pushSubscribe, undefined, subscription));
}

export function pushUnsubscribe(): Promise<undefined> {
  return bodyOf(call<undefined>(API_ROUTES.pushUnsubscribe));
}

/** Changes any of the three choices; answers with all three as now saved. */
export async function pushSettings(change: PushSettingsBody): Promise<PushSettings> {
  return (await bodyOf(call<{ settings: PushSettings }>(API_ROUTES.pushSettings, undefined, change))).settings;
}

/** One test notification to this device; 409 when the agent holds no subscription for it. */
export function pushTest(): Promise<{ sent: true }> {
  return bodyOf(call<{ sent: true }>(API_ROUTES.pushTest));
}
