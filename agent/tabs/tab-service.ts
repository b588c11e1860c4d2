import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { EventEmitter } from 'node:events';
import { AGENT_NAMES, isAgentKind, type AgentKind, type TabKind } from '../../protocol/agents.js';
import { displayNameFrom, type PaneTitle, type TabView, type WorkspaceView } from '../../protocol/api.js';
import type { TabRecord, WorkspaceStore } from '../store/workspace-store.js';
import type { AgentClis } from '../agents/agent-cli.js';
import { sessionNameFor } from '../tmux/commands.js';
import type { Tmux } from '../tmux/tmux.js';
import { newId } from '../util/ids.js';
import type { Logger } from '../util/log.js';

export class NotFoundError extends Error {}
/** The request is fine but cannot be served on this machine (its agent CLI missing). */
export class UnavailableError extends Error {}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Tabs as the person sees them: a record in the workspace store plus a live tmux session.
 * Owns the rule that the two agree: adopt sessions that survived the agent, restart shells
 * whose session did not survive a reboot, drop tabs whose shell was ended.
 */
export class TabService extends EventEmitter<{ change: [] }> {
  private readonly titles = new Map<string, PaneTitle>();
  private readonly alive = new Set<string>();
  /** `%N` pane id → tab id, from the last pane listing. */
  private paneToTab = new Map<string, string>();
  /** Tab id → pid of the pane's first process, from the last pane listing. */
  private panePids = new Map<string, number>();
  private refreshing: Promise<void> | null = null;
  /**
   * tmux sessions the agent is starting and has not recorded as tabs yet: discovery running
   * in that moment must not adopt them as sessions made by hand.
   */
  private readonly starting = new Set<string>();
  /** Discovery met sessions it could not adopt at the tab cap and logged it; said again only after room came back. */
  private toldTabCap = false;

  constructor(
    private readonly store: WorkspaceStore,
    private readonly tmux: Tmux,
    /** Environment given to every new shell (the login PATH, among others). */
    private readonly sessionEnv: Record<string, string>,
    private readonly log: Logger,
    private readonly agents: {
      /** The agent CLIs a tab can start (agent/agents/agent-cli.ts). */
      clis: AgentClis;
      /** Restart an agent tab on its own session after a reboot. */
      resumeAfterReboot: boolean;
    },
  ) {
    super();
    store.on('change', () => this.emit('change'));
  }

  /**
   * Sessions someone made on our tmux server by hand (`tmux -L pocketmux new -s x`) become
   * tabs, in the workspace whose directory holds their pane (else the first workspace), so
   * every session on the server shows in the app. A session marked by another data dir's
   * agent (a server shared through --tmux-socket) is that agent's: never adopted, so never
   * listed or closed here either.
   */
  async discover(): Promise<string[]> {
    // Tabs known before the listing or after it: one created while tmux answered is known
    // by then, and one closed meanwhile still shows in the listing but is not made by hand.
    const known = new Set(this.store.tabs().map((t) => t.tmuxSession));
    const owners = await this.tmux.sessionOwners();
    const panes = await this.tmux.listPanes();
    for (const tab of this.store.tabs()) known.add(tab.tmuxSession);
    const adopted: string[] = [];
    let atCap = false;
    for (const pane of panes) {
      if (known.has(pane.session) || this.starting.has(pane.session)) continue;
      // Not in the owners listing: made between the two listings; the next discovery decides.
      const owner = owners.get(pane.session);
      if (owner === undefined || (owner !== '' && owner !== this.tmux.owner)) continue;
      if (this.store.tabs().length >= this.store.limits.tabs) {
        atCap = true;
        if (!this.toldTabCap) {
          this.log.warn('the tab cap is reached: not adopting tmux sessions made outside pocketmux until a tab closes', {
            maxTabs: this.store.limits.tabs,
          });
        }
        break;
      }
      known.add(pane.session);
      const workspaces = [...this.store.workspaces()];
      const home = workspaces
        .filter((w) => pane.path === w.dir || pane.path.startsWith(`${w.dir.replace(/\/$/, '')}/`))
        .sort((a, b) => b.dir.length - a.dir.length)[0] ?? workspaces[0];
      if (!home) break;
      const tab = this.store.addTab({
        id: newId('tb'),
        workspaceId: home.id,
        name: displayNameFrom(pane.session, 'tmux session'),
        kind: 'shell',
        claudeSessionId: null,
        permissionMode: null,
        cwd: pane.path || home.dir,
        tmuxSession: pane.session,
      });
      this.alive.add(tab.id);
      adopted.push(tab.id);
      this.log.info('adopted a tmux session made outside pocketmux', { tab: tab.id, session: pane.session });
    }
    this.toldTabCap = atCap;
    if (adopted.length > 0) await this.refreshPanes();
    return adopted;
  }

  /** At agent start: adopt tabs whose session still runs, restart the others' shells. */
  async restore(): Promise<{ adopted: number; restarted: number }> {
    let adopted = 0;
    let restarted = 0;
    const existing = new Set(await this.tmux.listSessions());
    for (const tab of [...this.store.tabs()]) {
      if (existing.has(tab.tmuxSession)) {
        this.alive.add(tab.id);
        adopted++;
        continue;
      }
      const cwd = this.startDirectory(tab);
      // A session id kept by an older agent was taken from a hook unchecked: only one its CLI names so is resumed.
      const cli = isAgentKind(tab.kind) ? this.agents.clis[tab.kind] : null;
      const resume = this.agents.resumeAfterReboot && cli !== null && tab.claudeSessionId !== null && cli.resumable(tab.claudeSessionId) ? tab.claudeSessionId : null;
      try {
        await this.tmux.newSession({ name: tab.tmuxSession, cwd, env: this.envFor(tab.id), command: await this.commandFor(tab, resume) });
        this.alive.add(tab.id);
        restarted++;
        this.log.info('restarted the shell of a tab whose tmux session was gone', { tab: tab.id, cwd });
      } catch (err) {
        this.log.error('could not restart a tab', { tab: tab.id, error: (err as Error).message });
      }
    }
    await this.refreshPanes();
    return { adopted, restarted };
  }

  private startDirectory(tab: TabRecord): string {
    if (isDirectory(tab.cwd)) return tab.cwd;
    const ws = this.store.workspace(tab.workspaceId);
    if (ws && isDirectory(ws.dir)) return ws.dir;
    return homedir();
  }

  private envFor(tabId: string): Record<string, string> {
    return { ...this.sessionEnv, POCKETMUX_TAB: tabId };
  }

  /** An agent tab starts its CLI with our hooks (then a shell); a shell tab starts the login shell. */
  private async commandFor(tab: Pick<TabRecord, 'kind' | 'permissionMode'>, resume: string | null | undefined): Promise<string | undefined> {
    if (!isAgentKind(tab.kind)) return undefined;
    return this.agents.clis[tab.kind].tabCommand({ resume, permissionMode: tab.permissionMode });
  }

  /** Throws UnavailableError when no tab of this agent CLI can be started here. */
  assertAvailable(kind: AgentKind): void {
    const missing = this.agents.clis[kind].missing(this.sessionEnv.PATH ?? '');
    if (missing !== null) throw new UnavailableError(missing);
  }

  async createTab(
    workspaceId: string,
    name: string | null,
    opts: { kind: TabKind; resume?: string; permissionMode?: string } = { kind: 'shell' },
  ): Promise<TabRecord> {
    const ws = this.store.workspace(workspaceId);
    if (!ws) throw new NotFoundError(`no workspace ${workspaceId}`);
    if (!existsSync(ws.dir)) throw new NotFoundError(`the workspace directory ${ws.dir} no longer exists`);
    this.store.assertRoomForTab();
    if (isAgentKind(opts.kind)) this.assertAvailable(opts.kind);
    const id = newId('tb');
    const tmuxSession = sessionNameFor(ws.id, id);
    const record = { kind: opts.kind, permissionMode: opts.permissionMode ?? null };
    const command = await this.commandFor(record, opts.resume);
    this.starting.add(tmuxSession);
    let tab: TabRecord;
    try {
      await this.tmux.newSession({ name: tmuxSession, cwd: ws.dir, env: this.envFor(id), command });
    } catch (err) {
      this.starting.delete(tmuxSession);
      throw err;
    }
    this.alive.add(id);
    try {
      tab = this.store.addTab({
        id,
        workspaceId,
        name,
        ...record,
        claudeSessionId: isAgentKind(opts.kind) ? (opts.resume ?? null) : null,
        cwd: ws.dir,
        tmuxSession,
      });
    } catch (err) {
      // Another tab took the last place while this session started: it must not linger.
      this.alive.delete(id);
      await this.tmux.killSession(tmuxSession).catch(() => undefined);
      throw err;
    } finally {
      this.starting.delete(tmuxSession);
    }
    this.log.info('tab created', { tab: id, workspace: ws.id });
    // Give the new tab its title now rather than at the next poll.
    await this.refreshPanes().catch((err: Error) => this.log.warn('pane refresh failed', { error: err.message }));
    return tab;
  }

  async closeTab(id: string): Promise<void> {
    const tab = this.store.tab(id);
    if (!tab) throw new NotFoundError(`no tab ${id}`);
    await this.tmux.killSession(tab.tmuxSession);
    this.forget(id);
    this.store.removeTab(id);
    this.log.info('tab closed', { tab: id });
  }

  async closeWorkspace(id: string): Promise<void> {
    if (!this.store.workspace(id)) throw new NotFoundError(`no workspace ${id}`);
    for (const tab of this.store.tabsOf(id)) {
      await this.tmux.killSession(tab.tmuxSession);
      this.forget(tab.id);
    }
    this.store.removeWorkspace(id);
  }

  private forget(id: string): void {
    this.alive.delete(id);
    this.titles.delete(id);
  }

  /**
   * A terminal's tmux client exited. If the session is gone too, the shell ended (the
   * person typed `exit`, or killed it): the tab goes away. Returns whether it ended.
   */
  async sessionMayHaveEnded(id: string): Promise<boolean> {
    const tab = this.store.tab(id);
    if (!tab) return true;
    if (await this.tmux.hasSession(tab.tmuxSession)) return false;
    this.forget(id);
    this.store.removeTab(id);
    this.log.info('tab ended: its shell exited', { tab: id });
    return true;
  }

  /**
   * One `tmux list-panes` for every tab: live titles, current directories, and tabs whose
   * session disappeared while the agent ran. Concurrent callers share one run.
   */
  refreshPanes(): Promise<void> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    // Only tabs that existed before the listing can be judged by it.
    const listed = new Set(this.store.tabs().map((t) => t.id));
    const panes = await this.tmux.listPanes();
    const bySession = new Map(panes.map((p) => [p.session, p]));
    const tabBySession = new Map(this.store.tabs().map((t) => [t.tmuxSession, t.id]));
    this.paneToTab = new Map();
    this.panePids = new Map();
    for (const pane of panes) {
      const tabId = tabBySession.get(pane.session);
      if (!tabId) continue;
      this.paneToTab.set(pane.paneId, tabId);
      this.panePids.set(tabId, pane.panePid);
    }
    let changed = false;
    for (const tab of [...this.store.tabs()]) {
      if (!listed.has(tab.id)) continue;
      const pane = bySession.get(tab.tmuxSession);
      if (!pane) {
        if (this.alive.has(tab.id)) {
          this.forget(tab.id);
          this.store.removeTab(tab.id);
          this.log.info('tab ended: its tmux session is gone', { tab: tab.id });
        }
        continue;
      }
      this.alive.add(tab.id);
      const old = this.titles.get(tab.id);
      if (!old || old.command !== pane.command || old.path !== pane.path) {
        this.titles.set(tab.id, { command: pane.command, path: pane.path });
        changed = true;
      }
      if (pane.path) this.store.updateTabCwd(tab.id, pane.path);
    }
    if (changed) this.emit('change');
  }

  async sendInput(id: string, text: string, enter: boolean): Promise<void> {
    const tab = this.store.tab(id);
    if (!tab) throw new NotFoundError(`no tab ${id}`);
    await this.tmux.type(tab.tmuxSession, text, enter);
  }

  /** What the tab's pane shows now, as text. */
  async screen(id: string): Promise<string> {
    const tab = this.store.tab(id);
    if (!tab) throw new NotFoundError(`no tab ${id}`);
    return this.tmux.capturePane(tab.tmuxSession);
  }

  /** The pid of the tab's pane process at the last pane listing. */
  panePid(tabId: string): number | undefined {
    return this.panePids.get(tabId);
  }

  /** Whether someone has the tab's terminal open: a client attached to its session (a browser's terminal, a `tmux attach`). */
  async terminalOpen(tabId: string): Promise<boolean> {
    const tab = this.store.tab(tabId);
    return tab !== undefined && (await this.tmux.clientCount(tab.tmuxSession)) > 0;
  }

  /**
   * A hook named the session a tab's agent CLI runs; remembered to resume it after a reboot,
   * when it is a session id that CLI resumes (a UUID). Any other text a hook sends is never put
   * on a command line; the hook still counts for the status.
   */
  noteSession(tabId: string, sessionId: string): void {
    const kind = this.store.tab(tabId)?.kind;
    if (kind !== undefined && isAgentKind(kind) && this.agents.clis[kind].resumable(sessionId)) this.store.setClaudeSession(tabId, sessionId);
  }

  /**
   * When each tab's screen was last written to, in seconds (see `Tmux.paneActivity`): the
   * window its session shows, by the panes of the last listing. A tab whose shown pane is not
   * among them (new since, or its session shows another window now) is left out: unknown.
   */
  async activity(): Promise<Map<string, number>> {
    const written = new Map<string, number>();
    for (const pane of await this.tmux.paneActivity()) {
      const tabId = this.paneToTab.get(pane.paneId);
      if (pane.current && tabId !== undefined) written.set(tabId, Math.max(written.get(tabId) ?? 0, pane.writtenAt));
    }
    return written;
  }

  /** The tab a pane belongs to; looks again at tmux once when the pane is new to us. */
  async tabForPane(paneId: string): Promise<string | undefined> {
    const known = this.paneToTab.get(paneId);
    if (known && this.store.tab(known)) return known;
    await this.refreshPanes();
    return this.paneToTab.get(paneId);
  }

  tab(id: string): TabRecord | undefined {
    return this.store.tab(id);
  }

  /**
   * How a person names where a tab is: its name, else its agent ("Claude", "Codex", as its row
   * says) or what runs in a shell tab; and its workspace's name.
   */
  place(id: string): { tab: string; workspace: string; agent?: string } | null {
    const tab = this.store.tab(id);
    if (!tab) return null;
    const workspace = this.store.workspace(tab.workspaceId)?.name ?? '';
    if (isAgentKind(tab.kind)) return { tab: tab.name ?? AGENT_NAMES[tab.kind], workspace, agent: AGENT_NAMES[tab.kind] };
    return { tab: tab.name ?? this.titles.get(id)?.command ?? 'shell', workspace };
  }

  tabView(tab: TabRecord): TabView {
    return {
      id: tab.id,
      workspaceId: tab.workspaceId,
      name: tab.name,
      kind: tab.kind,
      claudeSessionId: tab.claudeSessionId,
      createdAt: tab.createdAt,
      cwd: tab.cwd,
      title: this.titles.get(tab.id) ?? null,
      alive: this.alive.has(tab.id),
    };
  }

  views(): WorkspaceView[] {
    return this.store.workspaces().map((ws) => ({
      id: ws.id,
      name: ws.name,
      dir: ws.dir,
      createdAt: ws.createdAt,
      guardrail: ws.guardrail,
      tabs: this.store.tabsOf(ws.id).map((t) => this.tabView(t)),
    }));
  }
}
