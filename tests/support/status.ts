/**
 * Test helpers for the Claude status engine: a real `/api/status` client, and what a hook
 * running in a tab's pane would see as $TMUX and $TMUX_PANE.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type WebSocket from 'ws';
import type { Approval, ApprovalResolution } from '../../protocol/approvals.js';
import type { StatusServerMessage, TabStatus } from '../../protocol/status.js';
import { type AgentHandle, REPO_ROOT, tmux } from './agent.js';

/** What the real Claude Code CLI sent to its hooks in a captured session. */
const CAPTURE_DIR = join(REPO_ROOT, 'tests', 'fixtures', 'claude-code-2.1.332');
import { type Session, deviceSocket } from './client.js';
import { eventually } from './eventually.js';

export class StatusClient {
  readonly messages: StatusServerMessage[] = [];
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(s: Session) {
    this.ws = deviceSocket(s, '/api/status');
    this.opened = new Promise((r) => this.ws.once('open', () => r()));
    this.ws.on('message', (d) => this.messages.push(JSON.parse(String(d)) as StatusServerMessage));
  }

  latest(tabId: string): TabStatus | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i];
      if (m?.type === 'status:update' && m.tabId === tabId) return m.status;
      if (m?.type === 'status:sync' && m.tabs[tabId]) return m.tabs[tabId];
    }
    return undefined;
  }

  /** Every state this client was told about for the tab, in order, repeats folded. */
  states(tabId: string): string[] {
    const out: string[] = [];
    for (const m of this.messages) {
      const s = m.type === 'status:update' && m.tabId === tabId ? m.status : m.type === 'status:sync' ? m.tabs[tabId] : undefined;
      if (s && out.at(-1) !== s.state) out.push(s.state);
    }
    return out;
  }

  /** The approvals open as this client knows them: from the last sync, then opened and resolved. */
  openApprovals(): Approval[] {
    const open = new Map<string, Approval>();
    for (const m of this.messages) {
      if (m.type === 'status:sync') {
        open.clear();
        for (const a of m.approvals) open.set(a.id, a);
      } else if (m.type === 'approval-opened') open.set(m.approval.id, m.approval);
      else if (m.type === 'approval-resolved') open.delete(m.resolution.id);
    }
    return [...open.values()];
  }

  /** Waits for an approval of the tab to be offered. */
  waitApproval(tabId: string, timeoutMs = 30_000): Promise<Approval> {
    return eventually(() => this.openApprovals().find((a) => a.tabId === tabId), timeoutMs, `an approval in ${tabId}`);
  }

  waitResolution(id: string, timeoutMs = 30_000): Promise<ApprovalResolution> {
    return eventually(
      () => this.messages.flatMap((m) => (m.type === 'approval-resolved' && m.resolution.id === id ? [m.resolution] : []))[0],
      timeoutMs,
      `approval ${id} to be resolved`,
    );
  }

  /**
   * Waits until the client was told of the tab in `state` at some point, even if it has moved
   * on since: for a state another follows at once (a safety poll every 200 ms).
   */
  waitSeen(tabId: string, state: TabStatus['state'], timeoutMs = 30_000): Promise<true> {
    return eventually(() => this.states(tabId).includes(state) || null, timeoutMs, `${tabId} to have been ${state}`);
  }

  waitState(tabId: string, state: TabStatus['state'], extra: (s: TabStatus) => boolean = () => true, timeoutMs = 30_000): Promise<TabStatus> {
    return eventually(
      () => {
        const s = this.latest(tabId);
        return s && s.state === state && extra(s) ? s : null;
      },
      timeoutMs,
      `${tabId} to be ${state}`,
    );
  }
}

/** `$TMUX_PANE` and `$TMUX` as a process in the tab's pane has them. */
export async function paneEnv(agent: Pick<AgentHandle, 'tmuxSocket'>, tab: { id: string; workspaceId: string }): Promise<{ TMUX_PANE: string; TMUX: string }> {
  const [paneId, socketPath, pid] = (
    await tmux(agent.tmuxSocket, 'display', '-p', '-t', `=pm_${tab.workspaceId}_${tab.id}:`, '#{pane_id}\t#{socket_path}\t#{pid}')
  )
    .trim()
    .split('\t');
  return { TMUX_PANE: paneId as string, TMUX: `${socketPath},${pid},0` };
}

/**
 * The questions of the AskUserQuestion the real CLI was captured asking ("Which colour should
 * the button be?", Red or Blue): what a stand-in model asks in tests.
 */
export function capturedQuestions(): { question: string; header: string; options: { label: string; description: string }[]; multiSelect: boolean }[] {
  const line = readFileSync(join(CAPTURE_DIR, 'ask-user-question', 'hooks.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.includes('"PermissionRequest"') && l.includes('"AskUserQuestion"'));
  if (!line) throw new Error('no AskUserQuestion in the captured hooks');
  return (JSON.parse(line) as { tool_input: { questions: ReturnType<typeof capturedQuestions> } }).tool_input.questions;
}

/** The first hook payload of `event` in the captured session of the real CLI. */
export function capturedHook(event: string): Record<string, unknown> {
  const line = readFileSync(join(CAPTURE_DIR, 'hooks.jsonl'), 'utf8')
    .split('\n')
    .find((l) => l.includes(`"${event}"`));
  if (!line) throw new Error(`no ${event} in the captured hooks`);
  return JSON.parse(line) as Record<string, unknown>;
}
