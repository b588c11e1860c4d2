import { EventEmitter } from 'node:events';
import { z } from 'zod';
import { isAgentKind, TAB_KINDS } from '../../protocol/agents.js';
import type { Guardrail } from '../../protocol/api.js';
import { GUARDRAIL_MINUTES } from '../../protocol/limits.js';
import { DEFAULTS } from '../config/config.js';
import { newId } from '../util/ids.js';
import type { Logger } from '../util/log.js';
import { readJsonFile, writeJsonAtomic } from './atomic-file.js';

const WorkspaceRecord = z.object({
  id: z.string().regex(/^ws-[a-z0-9]+$/),
  name: z.string().min(1),
  dir: z.string().min(1),
  createdAt: z.string(),
  guardrail: z.object({ afterMinutes: z.number().int().min(GUARDRAIL_MINUTES.min).max(GUARDRAIL_MINUTES.max) }).nullable().default(null),
});
export type WorkspaceRecord = z.infer<typeof WorkspaceRecord>;

const TabRecord = z.object({
  id: z.string().regex(/^tb-[a-z0-9]+$/),
  workspaceId: z.string(),
  name: z.string().nullable(),
  kind: z.enum(TAB_KINDS),
  /** A Claude or Codex tab: the session to resume after a reboot, learnt from its hooks. */
  claudeSessionId: z.string().nullable().default(null),
  permissionMode: z.string().nullable().default(null),
  createdAt: z.string(),
  /** Last known working directory of the pane; where the shell restarts after a reboot. */
  cwd: z.string().min(1),
  tmuxSession: z.string().min(1),
});
export type TabRecord = z.infer<typeof TabRecord>;

const WorkspaceFile = z.object({
  version: z.literal(1),
  workspaces: z.array(WorkspaceRecord),
  tabs: z.array(TabRecord),
});
type WorkspaceFile = z.infer<typeof WorkspaceFile>;

/** A workspace or tab past the store's cap: refused, and nothing changed. */
export class LimitError extends Error {}

export interface StoreLimits {
  workspaces: number;
  tabs: number;
}

/**
 * Workspaces and their tabs, persisted in one JSON file written atomically on every change.
 * Emits `change` after each mutation so the sync channel can tell every client.
 */
export class WorkspaceStore extends EventEmitter<{ change: [] }> {
  private data: WorkspaceFile = { version: 1, workspaces: [], tabs: [] };

  constructor(
    private readonly path: string,
    private readonly log: Logger,
    readonly limits: StoreLimits = { workspaces: DEFAULTS.maxWorkspaces, tabs: DEFAULTS.maxTabs },
  ) {
    super();
  }

  /** Loads the file; returns false when there was none (a first start). */
  load(): boolean {
    const result = readJsonFile(this.path, WorkspaceFile);
    if (result.status === 'ok') {
      this.data = result.value;
      // A tab whose workspace is gone cannot be shown; keep the rest.
      const known = new Set(this.data.workspaces.map((w) => w.id));
      this.data.tabs = this.data.tabs.filter((t) => known.has(t.workspaceId));
      return true;
    }
    if (result.status === 'corrupt') {
      this.log.error('workspaces file is corrupt; starting with none and keeping the old file', {
        reason: result.reason,
        setAsideAs: result.setAsideAs,
      });
      return true;
    }
    return false;
  }

  /**
   * Applies a change and writes the file. A write that fails (a full disk) undoes the change
   * and throws, so what the agent serves is always what its next start will read.
   */
  private change<T>(mutate: () => T): T {
    const before = structuredClone(this.data);
    const result = mutate();
    try {
      writeJsonAtomic(this.path, this.data);
    } catch (err) {
      this.data = before;
      throw err;
    }
    this.emit('change');
    return result;
  }

  workspaces(): readonly WorkspaceRecord[] {
    return this.data.workspaces;
  }

  tabs(): readonly TabRecord[] {
    return this.data.tabs;
  }

  workspace(id: string): WorkspaceRecord | undefined {
    return this.data.workspaces.find((w) => w.id === id);
  }

  tab(id: string): TabRecord | undefined {
    return this.data.tabs.find((t) => t.id === id);
  }

  tabsOf(workspaceId: string): TabRecord[] {
    return this.data.tabs.filter((t) => t.workspaceId === workspaceId);
  }

  /** Throws LimitError when one more workspace would pass the cap. */
  assertRoomForWorkspace(): void {
    if (this.data.workspaces.length >= this.limits.workspaces) {
      throw new LimitError(`at most ${this.limits.workspaces} workspaces can exist; close one before adding another`);
    }
  }

  addWorkspace(name: string, dir: string): WorkspaceRecord {
    this.assertRoomForWorkspace();
    const ws: WorkspaceRecord = { id: newId('ws'), name, dir, createdAt: new Date().toISOString(), guardrail: null };
    this.change(() => this.data.workspaces.push(ws));
    return ws;
  }

  renameWorkspace(id: string, name: string): WorkspaceRecord | undefined {
    const ws = this.workspace(id);
    if (!ws) return undefined;
    this.change(() => {
      ws.name = name;
    });
    return ws;
  }

  setGuardrail(id: string, guardrail: Guardrail | null): WorkspaceRecord | undefined {
    const ws = this.workspace(id);
    if (!ws) return undefined;
    this.change(() => {
      ws.guardrail = guardrail;
    });
    return ws;
  }

  removeWorkspace(id: string): void {
    this.change(() => {
      this.data.workspaces = this.data.workspaces.filter((w) => w.id !== id);
      this.data.tabs = this.data.tabs.filter((t) => t.workspaceId !== id);
    });
  }

  /** Throws LimitError when one more tab would pass the cap; checked before a session is started. */
  assertRoomForTab(): void {
    if (this.data.tabs.length >= this.limits.tabs) {
      throw new LimitError(`at most ${this.limits.tabs} tabs can be open; close one before opening another`);
    }
  }

  addTab(tab: Omit<TabRecord, 'createdAt'>): TabRecord {
    this.assertRoomForTab();
    const record: TabRecord = { ...tab, createdAt: new Date().toISOString() };
    this.change(() => this.data.tabs.push(record));
    return record;
  }

  renameTab(id: string, name: string | null): TabRecord | undefined {
    const tab = this.tab(id);
    if (!tab) return undefined;
    this.change(() => {
      tab.name = name;
    });
    return tab;
  }

  /** Remembers which session a tab's agent CLI runs (Claude's, Codex's), so a reboot can resume it. */
  setClaudeSession(id: string, sessionId: string): void {
    const tab = this.tab(id);
    if (tab === undefined || !isAgentKind(tab.kind) || tab.claudeSessionId === sessionId) return;
    this.change(() => {
      tab.claudeSessionId = sessionId;
    });
  }

  /** Records where the pane's shell is now, without a change event: titles travel on their own. */
  updateTabCwd(id: string, cwd: string): void {
    const tab = this.tab(id);
    if (!tab || tab.cwd === cwd) return;
    tab.cwd = cwd;
    writeJsonAtomic(this.path, this.data);
  }

  removeTab(id: string): boolean {
    if (!this.tab(id)) return false;
    this.change(() => {
      this.data.tabs = this.data.tabs.filter((t) => t.id !== id);
    });
    return true;
  }
}
