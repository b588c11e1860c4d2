import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';
import { descendants } from '../util/process-tree.js';
import { readRegularFileSync } from '../util/regular-file.js';

export { descendants };

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

/** One running process as the system tells of it, to prove what it is before it is signalled. */
export interface ProcessIdentity {
  /**
   * When it started, as Claude writes `procStart` in its session file on this system: field
   * 22 of /proc/<pid>/stat on Linux, `ps -o lstart=` in the C locale and UTC elsewhere.
   */
  start: string;
  /** Its command name (a name, never a path). */
  comm: string;
  /** Its command line; from `ps`, split at spaces, so a path holding one is cut there. */
  argv: string[];
}

/** The same two sources, asked about one process. */
export interface ProcessInspector {
  identity(pid: number): Promise<ProcessIdentity | null>;
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

/** A process's start time, command name and command line from /proc; null once it is gone. */
export function procIdentity(pid: number, proc = '/proc'): ProcessIdentity | null {
  try {
    const stat = readFileSync(join(proc, String(pid), 'stat'), 'utf8');
    const entry = parseStat(stat);
    const start = procStartTime(pid, proc);
    if (!entry || start === null) return null;
    const argv = readFileSync(join(proc, String(pid), 'cmdline'), 'utf8').split('\0').filter((a) => a !== '');
    return { start, comm: entry.comm, argv };
  } catch {
    return null;
  }
}

/** `ps -o lstart=` as the C locale writes it (`Tue Dec  1 22:09:00 2026`), then the command line. */
const PS_IDENTITY = /^\s*([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}) +(\S.*)$/;

/** Arguments for `ps` that print one process's start time and command line, on procps and BSD ps alike. */
export function psIdentityArgs(pid: number): string[] {
  return ['-ww', '-o', 'lstart=', '-o', 'args=', '-p', String(pid)];
}

/** The line `ps` prints for psIdentityArgs; null for anything else. */
export function parsePsIdentity(output: string): ProcessIdentity | null {
  const m = PS_IDENTITY.exec(output.split('\n')[0] ?? '');
  if (!m) return null;
  const argv = (m[2] as string).trimEnd().split(/ +/);
  return { start: m[1] as string, comm: commandName(argv[0] ?? ''), argv };
}

/**
 * Whether a process is a claude: its command name is (as in findClaude), or its program is
 * (`~/.local/bin/claude`, the npm package's `claude.exe`), or node or bun runs the npm
 * package's script.
 */
export function isClaudeCommand(identity: Pick<ProcessIdentity, 'comm' | 'argv'>): boolean {
  const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const [program = '', script = ''] = identity.argv;
  if (/^claude/.test(identity.comm) || /^claude/.test(name(program))) return true;
  return /^(node|nodejs|bun)$/.test(name(program)) && script.includes('/@anthropic-ai/claude-code/');
}

/**
 * Whether `pid` is proven to be the claude of `sessionId`, as a signal needs: its session file
 * names that session and gives a start time (`procStart`), the process started then, and it
 * runs claude. A file without a start time proves nothing: a file left by a claude that was
 * killed would lend its pid to whatever took that number later.
 */
export async function isProvenClaudeOfSession(configDir: string, pid: number, sessionId: string, processes: ProcessInspector): Promise<boolean> {
  const file = readSessionFile(configDir, pid);
  if (!file || file.sessionId !== sessionId || !file.procStart) return false;
  const running = await processes.identity(pid);
  return running !== null && running.start === file.procStart && isClaudeCommand(running);
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
export class ProcLister implements ProcessLister, ProcessInspector {
  readonly kind = 'proc';
  constructor(private readonly root = '/proc') {}
  async list(): Promise<ProcessTable> {
    return readProcessTable(this.root);
  }
  async identity(pid: number): Promise<ProcessIdentity | null> {
    return procIdentity(pid, this.root);
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
export class PsLister implements ProcessLister, ProcessInspector {
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
  /** Claude reads its own start time this way, in the C locale and UTC, and so must we to compare. */
  identity(pid: number): Promise<ProcessIdentity | null> {
    return new Promise((resolve) => {
      const env = { ...process.env, LC_ALL: 'C', TZ: 'UTC' };
      execFile(this.bin, psIdentityArgs(pid), { env, timeout: this.timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 }, (err, stdout) => {
        // ps exits 1 for a pid that is not there.
        resolve(err ? null : parsePsIdentity(stdout));
      });
    });
  }
}

/** /proc when this system has one for us (Linux), else `ps` (macOS). */
export function platformProcessLister(proc = '/proc'): ProcessLister & ProcessInspector {
  return existsSync(join(proc, 'self')) ? new ProcLister(proc) : new PsLister();
}

let chosen: (ProcessLister & ProcessInspector) | null = null;

/** The lister for this machine, chosen once, at first use. */
export function processLister(): ProcessLister & ProcessInspector {
  chosen ??= platformProcessLister();
  return chosen;
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
export function findClaude(panePid: number, configDir: string, table: ReadonlyMap<number, ProcessEntry>): ClaudeProcess | null {
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
