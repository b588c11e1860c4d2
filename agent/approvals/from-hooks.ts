/**
 * Where Claude's hooks meet the approval store: a PermissionRequest opens an approval, and the
 * events that show Claude has moved on settle the ones it no longer waits for.
 */
import type { HookPayload } from '../../protocol/hooks.js';
import type { ApprovalRequest, ApprovalStore } from './approval-store.js';
import { describeRequest } from './summary.js';

export type PermissionRequestPayload = Extract<HookPayload, { hook_event_name: 'PermissionRequest' }>;

export function approvalRequest(tabId: string, payload: PermissionRequestPayload): ApprovalRequest {
  const described = describeRequest(payload);
  return {
    tabId,
    sessionId: payload.session_id,
    kind: described.kind,
    tool: described.tool,
    summary: described.summary,
    questions: described.questions,
    questionKeys: described.questionKeys,
    options: [],
    alwaysAllow: described.alwaysAllow,
    toolInput: payload.tool_input,
    suggestions: payload.permission_suggestions ?? [],
  };
}

/**
 * Claude goes on without waiting for the hook when the person answers in the terminal, and the
 * hook's request stays open (seen with the real CLI: it closes only when claude exits), so the
 * answer is learnt from what Claude does next.
 */
export function settleFromHook(store: ApprovalStore, tabId: string, payload: HookPayload): void {
  switch (payload.hook_event_name) {
    case 'PostToolUse':
    case 'PostToolUseFailure':
      store.settleTool(tabId, payload.tool_name, payload.tool_input);
      return;
    case 'UserPromptSubmit':
    case 'Stop':
    case 'StopFailure':
      store.settleTab(tabId, 'answered-in-terminal');
      return;
    case 'SessionEnd':
      store.settleTab(tabId, 'claude-exited');
      return;
    default:
      return;
  }
}
