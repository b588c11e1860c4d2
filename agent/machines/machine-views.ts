/**
 * A linked machine's sessions, workspaces and approvals as the home agent serves them: each key
 * the machine gives with the machine's id in front (`protocol/machine-key.ts`), and each
 * workspace, outside session and approval marked with its machine. The union rewrites what it
 * follows with these; a forwarded request's answer gets the same, so what the phone is told
 * names a session the way its lists do.
 */
import type { TabView, WorkspaceView } from '../../protocol/api.js';
import { z } from 'zod/mini';
import { type Approval, type ApprovalResolution, ApprovalResolutionSchema } from '../../protocol/approvals.js';
import { machineKey } from '../../protocol/machine-key.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { API_ROUTES, type ApiRoute } from '../../protocol/routes.js';
import { safeParse } from '../../protocol/safe-parse.js';
import { TabViewSchema, WorkspaceViewSchema } from '../../protocol/sync-server.js';

export function tabOf(machine: string, t: TabView): TabView {
  return { ...t, id: machineKey(machine, t.id), workspaceId: machineKey(machine, t.workspaceId) };
}

export function workspaceOf(machine: string, w: WorkspaceView): WorkspaceView {
  return { ...w, id: machineKey(machine, w.id), machine, tabs: w.tabs.map((t) => tabOf(machine, t)) };
}

export function outsideOf(machine: string, o: OutsideSessionView): OutsideSessionView {
  return { ...o, key: machineKey(machine, o.key), machine };
}

export function approvalOf(machine: string, a: Approval): Approval {
  return { ...a, id: machineKey(machine, a.id), tabId: machineKey(machine, a.tabId), ...(a.follows === undefined ? {} : { follows: machineKey(machine, a.follows) }), machine };
}

export function resolutionOf(machine: string, r: ApprovalResolution): ApprovalResolution {
  return { ...r, id: machineKey(machine, r.id), tabId: machineKey(machine, r.tabId) };
}

/**
 * The routes whose answer names a session, workspace or approval: the schema it is read with
 * and how it is rekeyed. Every other answer (204s, the changes, a mode, commands, history)
 * holds no key and passes as it came.
 */
const ANSWERS_WITH_KEYS = new Map<ApiRoute, (machine: string, body: unknown) => unknown>([
  [API_ROUTES.createTab, rekeyed(TabViewSchema, tabOf)],
  [API_ROUTES.renameTab, rekeyed(TabViewSchema, tabOf)],
  [API_ROUTES.adoptOutside, rekeyed(TabViewSchema, tabOf)],
  [API_ROUTES.renameWorkspace, rekeyed(WorkspaceViewSchema, workspaceOf)],
  // A decision's, and a refusal's that says how it was settled already (409), with its words kept.
  [API_ROUTES.decideApproval, rekeyed(z.object({ resolution: ApprovalResolutionSchema }), (machine, body, raw) => ({ ...(raw as object), resolution: resolutionOf(machine, body.resolution) }))],
]);

/** Reads a body with `schema` and rekeys it; null for one that does not fit (never guessed at). */
function rekeyed<T>(schema: z.ZodMiniType<T>, rekey: (machine: string, body: T, raw: unknown) => unknown) {
  return (machine: string, body: unknown): unknown => {
    const parsed = safeParse(schema, body);
    return parsed.success ? rekey(machine, parsed.data, body) : null;
  };
}

/**
 * A linked machine's JSON answer to `route`, in the home agent's keys; null when it is to pass
 * as it came (no key in it: a refusal's words, or a body not of the shape the route answers with).
 */
export function answerOf(route: ApiRoute, machine: string, body: unknown): unknown {
  return ANSWERS_WITH_KEYS.get(route)?.(machine, body) ?? null;
}
