/**
 * Where Claude's hooks meet the approval store: a PermissionRequest opens an approval, and the
 * events that show Claude has moved on settle the ones it no longer waits for.
 */
import { BLOCK_OPTIONS } from '../../protocol/approvals.js';
import type { HookPayload } from '../../protocol/hooks.js';
import { cardText } from '../util/card-text.js';
import { jsonDepth } from '../util/json-walk.js';
import type { ApprovalRequest, ApprovalStore } from './approval-store.js';
import { describeRequest, SUMMARY_LIMITS } from './summary.js';

export type PermissionRequestPayload = Extract<HookPayload, { hook_event_name: 'PermissionRequest' }>;
export type PermissionDeniedPayload = Extract<HookPayload, { hook_event_name: 'PermissionDenied' }>;

/**
 * Deeper than any tool input Claude Code sends (its own tools nest four deep, an MCP tool's
 * arguments a few more). An answer carries the input back to Claude (a question's answers go
 * beside it), and nothing that recurses may ever touch an input nested deeper than this.
 */
export const TOOL_INPUT_MAX_DEPTH = 64;

/**
 * The approval a PermissionRequest opens, or null when it is not offered: its tool input nests
 * deeper than `TOOL_INPUT_MAX_DEPTH`, and is left to the dialog in the terminal.
 */
export function approvalRequest(tabId: string, payload: PermissionRequestPayload): ApprovalRequest | null {
  if (jsonDepth(payload.tool_input) > TOOL_INPUT_MAX_DEPTH) return null;
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
 * The block a PermissionDenied opens: the call as a permission card would show it, with the
 * classifier's reason as Claude words it ("Auto mode: [Code from External]"). Null for an input
 * nested too deep to carry (as for a permission).
 */
export function blockRequest(tabId: string, payload: PermissionDeniedPayload): ApprovalRequest | null {
  const toolInput = payload.tool_input ?? {};
  if (jsonDepth(toolInput) > TOOL_INPUT_MAX_DEPTH) return null;
  const described = describeRequest({ ...payload, hook_event_name: 'PermissionRequest', tool_input: toolInput });
  const reason = payload.reason?.trim();
  return {
    tabId,
    sessionId: payload.session_id,
    kind: 'block',
    tool: described.tool,
    summary: {
      ...described.summary,
      description: cardText(reason ? `Auto mode: ${reason}` : 'Auto mode blocked this call.', SUMMARY_LIMITS.description),
    },
    questions: [],
    questionKeys: [],
    options: [...BLOCK_OPTIONS],
    alwaysAllow: null,
    toolInput,
    suggestions: [],
  };
}

/**
 * Claude goes on without waiting for the hook when the person answers in the terminal, and the
 * hook's request stays open (seen with the real CLI: it closes only when claude exits), so the
 * answer is learnt from what Claude does next.
 */
export function settleFromHook(store: Pick<ApprovalStore, 'settleTool' | 'settleTab'>, tabId: string, payload: HookPayload): void {
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
