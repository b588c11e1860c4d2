import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';
import { readRegularFileSync } from '../util/regular-file.js';

/** `~/.claude/sessions/<pid>.json`: undocumented, so read loosely and used as a hint only. */
const SessionFile = z.looseObject({
  pid: z.number().optional(),
  sessionId: z.string().optional(),
  cwd: z.string().optional(),
  status: z.string().optional(),
  waitingFor: z.string().optional(),
  /** On Linux: the process's start time as /proc/<pid>/stat's field 22 gives it. */
  procStart: z.string().optional(),
});
export type ClaudeSessionFile = z.infer<typeof SessionFile>;

export interface ClaudeProcess {
  pid: number;
  /** The session file Claude keeps while it runs, when there is one. */
  session: ClaudeSessionFile | null;
}

/** A process's parent and its command name (a name, never a path). */
export interface ProcessEntry {
  ppid: number;
  comm: string;
}

/** Every process on the machine, by pid. */
export type ProcessTable = Map<number, ProcessEntry>;

/**
 * The one way the agent learns which processes run: `/proc` on Linux, `ps` where there is
 * no `/proc` (macOS). Both give the same table: pid, parent pid, command name.
 */
export interface ProcessLister {
  readonly kind: 'proc' | 'ps';
  list(): Promise<ProcessTable>;
}

/** Parent pid of every process, from /proc/<pid>/stat (the field after the `(comm)`). */
export function readProcessTable(proc = '/proc'): ProcessTable {
  const table: ProcessTable = new Map();
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
export function parseStat(stat: string): ProcessEntry | null {
  const open = stat.indexOf('(');
  const close = stat.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const rest = stat.slice(close + 2).split(' ');
  const ppid = Number(rest[1]);
  return Number.isInteger(ppid) ? { ppid, comm: stat.slice(open + 1, close) } : null;
}

/** Field 22 of /proc/<pid>/stat, the process's start time in clock ticks since boot; null where unreadable. */
export function procStartTime(pid: number, proc = '/proc'): string | null {
  try {
    const stat = readFileSync(join(proc, String(pid), 'stat'), 'utf8');
    const close = stat.lastIndexOf(')');
    if (close < 0) return null;
    // Field 3 (the state) is the first after the command name.
    const start = stat.slice(close + 2).split(' ')[19];
    return start && /^\d+$/.test(start) ? start : null;
  } catch {
    return null;
  }
}

/**
 * Whether `pid` is the claude of `sessionId` now: its session file is there and names that
 * session, and, where both sides tell (Linux), the file's start time is the process's, so a
 * file left by a claude that was killed cannot lend its pid to whatever took that number later.
 */
export function isClaudeOfSession(configDir: string, pid: number, sessionId: string, alive: (pid: number) => boolean, proc = '/proc'): boolean {
  const file = readSessionFile(configDir, pid);
  if (!file || file.sessionId !== sessionId || !alive(pid)) return false;
  if (file.procStart === undefined) return true;
  const started = procStartTime(pid, proc);
  return started === null || started === file.procStart;
}

/** Linux: the kernel's own table, read without starting a process. */
export class ProcLister implements ProcessLister {
  readonly kind = 'proc';
  constructor(private readonly root = '/proc') {}
  async list(): Promise<ProcessTable> {
    return readProcessTable(this.root);
  }
}

/**
 * Arguments for `ps` that mean the same on procps (Linux) and BSD ps (macOS): every process,
 * no header, and no width limit (BSD ps cuts its last column at the terminal's width, or 79
 * characters without a terminal, and `comm` is a full path there).
 */
export const PS_ARGS = ['-A', '-ww', '-o', 'pid=,ppid=,comm='] as const;

/**
 * The name a command goes by, as /proc gives it. BSD ps shows `comm` as the program's
 * argv[0]: a full path (`/Users/me/.local/bin/claude`), or `-zsh` for a login shell. procps
 * shows the kernel's name, which is a path only for kernel threads (`kworker/0:1`), never
 * under a pane: those are left alone.
 */
export function commandName(comm: string): string {
  let name = comm.startsWith('-') && comm.length > 1 ? comm.slice(1) : comm;
  if (/^\.{0,2}\//.test(name)) {
    const base = name.slice(name.lastIndexOf('/') + 1);
    if (base) name = base;
  }
  return name;
}

/** `  PID  PPID COMM` lines; the command is the rest of the line and may hold spaces. */
export function parsePs(output: string): ProcessTable {
  const table: ProcessTable = new Map();
  for (const line of output.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+) ?(.*)$/.exec(line);
    if (!m) continue;
    table.set(Number(m[1]), { ppid: Number(m[2]), comm: commandName((m[3] as string).trimEnd()) });
  }
  return table;
}

/** macOS (and any system without /proc): one `ps` run per look, bounded by a timeout. */
export class PsLister implements ProcessLister {
  readonly kind = 'ps';
  constructor(
    private readonly bin = 'ps',
    private readonly timeoutMs = 5_000,
  ) {}
  list(): Promise<ProcessTable> {
    return new Promise((resolve, reject) => {
      execFile(this.bin, [...PS_ARGS], { timeout: this.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => {
        if (err) reject(new Error(`could not list processes with ${this.bin}: ${err.message}`));
        else resolve(parsePs(stdout));
      });
    });
  }
}

/** /proc when this system has one for us (Linux), else `ps` (macOS). */
export function platformProcessLister(proc = '/proc'): ProcessLister {
  return existsSync(join(proc, 'self')) ? new ProcLister(proc) : new PsLister();
}

let chosen: ProcessLister | null = null;

/** The lister for this machine, chosen once, at first use. */
export function processLister(): ProcessLister {
  chosen ??= platformProcessLister();
  return chosen;
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

/** A session file is a few hundred bytes; one far larger is not Claude's. */
const SESSION_FILE_MAX_BYTES = 64 * 1024;

/**
 * Claude's session file for `pid`, or null: none, not one Claude wrote (a FIFO, a device, a
 * link or anything past the bound is not read), or not parsed.
 */
export function readSessionFile(configDir: string, pid: number): ClaudeSessionFile | null {
  try {
    const text = readRegularFileSync(join(configDir, 'sessions', `${pid}.json`), { maxBytes: SESSION_FILE_MAX_BYTES, noFollow: true }).toString('utf8');
    const parsed = safeParse(SessionFile, JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Whether claude runs in a pane: the pane's shell, its descendants, and Claude's own session
 * file for a descendant's pid. A process named claude without a session file still counts.
 * `table` comes from a ProcessLister; one table serves every pane of one look.
 */
export function findClaude(panePid: number, configDir: string, table: ProcessTable): ClaudeProcess | null {
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
