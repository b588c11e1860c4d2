import type { PaneTitle, TabView, } from '../../protocol/api.js';
import type { MachineSummary } from '../../protocol/machine-key.js';
import { AGENT_KINDS, AGENT_NAMES } from '../../protocol/agents.js';
import type { OutsideSessionView, OutsideTerminal } from '../../protocol/outside.js';
import { visibleText } from '../../protocol/safe-text.js';

// Until the agent has said where its home is, guess from where homes live on the systems
// tmux runs on.
const GUESSED_HOME = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?=\/|$)/;
let homePrefix: RegExp = GUESSED_HOME;

/** The agent's home directory, from `GET /api/session`. */
export function setHomeDirectory(home: string): void {
  const trimmed = home.replace(/\/+$/, '');
  if (!trimmed) return;
  homePrefix = new RegExp(`^${trimmed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|$)`);
}

let machines: readonly MachineSummary[] = [];

/** The linked machines, from every sync snapshot: their names go before their workspaces'. */
export function setMachines(list: readonly MachineSummary[]): void {
  machines = list;
}

/**
 * A machine as its sessions are named: its name, and "unreachable" while it is (its sessions
 * are the last it sent); undefined for the home agent's own (no machine).
 */
export function machineLabel(id: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  const m = machines.find((x) => x.id === id);
  if (!m) return 'A linked machine';
  return awayMachine(id) ? `${m.name} (unreachable)` : m.name;
}

/**
 * The linked machine `id` when it does not answer, whose sessions are then read, not acted
 * on; undefined for one that answers (or is still being asked) and for the home agent's own.
 */
export function awayMachine(id: string | undefined, list = machines): MachineSummary | undefined {
  const m = id === undefined ? undefined : list.find((x) => x.id === id);
  return m && m.reach !== 'ok' && m.reach !== 'unknown' ? m : undefined;
}

/** A workspace or group as the list and the cards name it: a linked machine's after that machine. */
export function groupName(name: string, machine: string | undefined): string {
  const label = machineLabel(machine);
  return visibleText(label === undefined ? name : `${label} · ${name}`);
}

/**
 * A path as a person reads it: the home part as `~`, only the last parts when long, and
 * control or bidi characters spelled out (`\u202e`), so `report\u202etxt.exe` cannot pass
 * for `reportexe.txt`.
 */
export function shortPath(path: string, maxParts = 3): string {
  return visibleText(shortenPath(path, maxParts));
}

function shortenPath(path: string, maxParts: number): string {
  let p = path.replace(homePrefix, '~');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  const root = p.startsWith('~') ? '~' : '';
  const parts = (root ? p.slice(1) : p).split('/').filter(Boolean);
  if (parts.length <= maxParts) return p || '/';
  return `…/${parts.slice(-maxParts).join('/')}`;
}

/** tmux sets the title to `command|path` (see the agent's tmux config). */
export function parsePaneTitle(title: string): PaneTitle | null {
  const bar = title.indexOf('|');
  if (bar <= 0) return title.trim() ? { command: title.trim(), path: '' } : null;
  return { command: title.slice(0, bar), path: title.slice(bar + 1) };
}

export interface TabLabel {
  /** The name the person gave the tab, else what runs in it. */
  primary: string;
  /** What runs in a named tab; null when `primary` already says it. */
  command: string | null;
  /** Where it runs, shortened. */
  path: string;
}

export function tabLabel(tab: Pick<TabView, 'name' | 'title' | 'cwd'>, live: PaneTitle | null = null): TabLabel {
  const title = live ?? tab.title;
  const path = shortPath(title?.path || tab.cwd);
  // A process can name itself anything; names kept from older versions were not checked.
  const command = title?.command ? visibleText(title.command) : null;
  if (tab.name) return { primary: visibleText(tab.name), command, path };
  return { primary: command ?? 'Shell', command: null, path };
}

/** The group the list and the inbox put Claude sessions started outside pocketmux in. */
export const OUTSIDE_GROUP = 'Outside pocketmux';

/**
 * A Claude started outside pocketmux, named as a person knows it: by its project directory's
 * last part (its full path beside it, shortened), or "Claude" while its directory is unknown.
 */
export function outsideLabel(cwd: string | null): { primary: string; path: string } {
  if (!cwd) return { primary: 'Claude', path: '' };
  const trimmed = cwd.length > 1 ? cwd.replace(/\/+$/, '') : cwd;
  const last = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return { primary: visibleText(last || trimmed || 'Claude'), path: shortPath(cwd) };
}

/**
 * What adopting an outside session does, asked before it is done: its claude (in the person's
 * tmux, or in whatever terminal it was started in) ends, and a Claude tab resumes the same
 * conversation; a prompt typed there and not sent is lost.
 */
export function adoptQuestion(terminal: OutsideTerminal): string {
  const where = terminal === 'tmux' ? 'your tmux' : 'its terminal';
  return `Move this conversation into a pocketmux tab? Its claude in ${where} is ended, and a Claude tab here resumes the same conversation. Anything typed but not sent there is lost.`;
}

/** "Claude started elsewhere on this machine", naming each CLI the sessions run ("Claude and Codex …"). */
export function startedElsewhere(sessions: readonly Pick<OutsideSessionView, 'agent'>[]): string {
  const names = AGENT_KINDS.filter((kind) => sessions.some((s) => (s.agent ?? 'claude') === kind)).map((kind) => AGENT_NAMES[kind]);
  return `${names.length > 0 ? names.join(' and ') : AGENT_NAMES.claude} started elsewhere on this machine`;
}
