import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** `~/.claude/sessions/<pid>.json`: undocumented, so read loosely and used as a hint only. */
const SessionFile = z.looseObject({
  pid: z.number().optional(),
  sessionId: z.string().optional(),
  cwd: z.string().optional(),
  status: z.string().optional(),
  waitingFor: z.string().optional(),
});
export type ClaudeSessionFile = z.infer<typeof SessionFile>;

export interface ClaudeProcess {
  pid: number;
  /** The session file Claude keeps while it runs, when there is one. */
  session: ClaudeSessionFile | null;
}

/** Parent pid of every process, from /proc/<pid>/stat (the field after the `(comm)`). */
export function readProcessTable(proc = '/proc'): Map<number, { ppid: number; comm: string }> {
  const table = new Map<number, { ppid: number; comm: string }>();
  for (const entry of readdirSync(proc)) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join(proc, entry, 'stat'), 'utf8');
      const parsed = parseStat(stat);
      if (parsed) table.set(Number(entry), parsed);
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

/** `pid (comm) state ppid …`; comm may itself hold spaces and parentheses. */
export function parseStat(stat: string): { ppid: number; comm: string } | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = stat.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  return Number.isInteger(ppid) ? { ppid, comm: stat.slice(open + 1, close) } : null;
}

/** Every descendant of `root`, nearest first. */
export function descendants(table: Map<number, { ppid: number }>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) {
    const list = children.get(ppid) ?? [];
    list.push(pid);
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function readSessionFile(configDir: string, pid: number): ClaudeSessionFile | null {
  try {
    const parsed = SessionFile.safeParse(JSON.parse(readFileSync(join(configDir, 'sessions', `${pid}.json`), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Whether claude runs in a pane: the pane's shell, its descendants, and Claude's own session
 * file for a descendant's pid. A process named claude without a session file still counts.
 */
export function findClaude(
  panePid: number,
  configDir: string,
  table: Map<number, { ppid: number; comm: string }> = readProcessTable(),
): ClaudeProcess | null {
  const candidates = [panePid, ...descendants(table, panePid)];
  for (const pid of candidates) {
    const session = readSessionFile(configDir, pid);
    if (session) return { pid, session };
  }
  for (const pid of candidates) {
    if (/^claude/.test(table.get(pid)?.comm ?? '')) return { pid, session: null };
  }
  return null;
}
