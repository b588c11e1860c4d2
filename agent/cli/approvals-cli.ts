/**
 * `pocketmux approvals`, `approve`, `deny` and `answer`: what Claude is waiting on, answered
 * from this machine's shell, as a paired phone would answer it. The agent decides what a
 * decision means and who came first; the CLI only turns words into a decision body.
 */
import type { DecisionBody } from '../../protocol/api.js';
import type { Approval, ApprovalOutcome, ApprovalQuestion, ApprovalResolution } from '../../protocol/approvals.js';
import { API_ROUTES, CHANNEL_PATHS } from '../../protocol/routes.js';
import { visibleJson, visibleText } from '../../protocol/safe-text.js';
import { CLI_TOKEN_HEADER } from '../auth/access.js';
import { advisedCommand } from '../config/command-name.js';
import { defaultDataDir } from '../config/home.js';
import { CliError, type Connection, call, connect, EXIT } from './remote.js';
import { safeParse } from '../../protocol/safe-parse.js';

export interface ApprovalCliOptions {
  dataDir: string;
  json: boolean;
  /** `approvals --wait`: block until at least one is open. */
  wait: boolean;
  timeoutS: number;
  /** `approve --always`: Claude's own "always allow" suggestion. */
  always: boolean;
  /** `deny --message`: what Claude is told instead of the default reason. */
  message?: string | undefined;
}

const out = (text: string) => process.stdout.write(text);

const USAGE = {
  approvals: 'approvals [--json] [--wait] [--timeout SECONDS]',
  approve: 'approve ID [--always]',
  deny: 'deny ID [--message TEXT]',
  answer: 'answer ID LABEL... (one per question; a plan or dialog takes its option number)',
} as const;

/** A command line for the agent the CLI was pointed at (see advisedCommand). */
type Advise = (rest: string) => string;

const adviseDefault: Advise = (rest) => advisedCommand(rest, defaultDataDir());

/** Polling interval when the status channel cannot be used. */
const POLL_MS = 200;

export async function runApprovals(args: string[], opts: ApprovalCliOptions): Promise<number> {
  const [command, ...rest] = args;
  const advise: Advise = (words) => advisedCommand(words, opts.dataDir);
  const usage = (name: keyof typeof USAGE) => `usage: ${advise(USAGE[name])}`;
  switch (command) {
    case 'approvals': {
      if (rest.length !== 0) throw new CliError(usage('approvals'), EXIT.usage);
      const conn = connect(opts.dataDir);
      const list = opts.wait ? await awaitApprovals(conn, opts.timeoutS) : await openApprovals(conn);
      out(opts.json ? `${visibleJson(list, 2)}\n` : listing(list, advise));
      return EXIT.ok;
    }
    case 'approve': {
      if (rest.length !== 1) throw new CliError(usage('approve'), EXIT.usage);
      const id = rest[0] as string;
      const conn = connect(opts.dataDir);
      const approval = await findApproval(conn, id);
      if (approval?.kind === 'question') throw new CliError(`${id} is a question: ${answerHint(approval, advise)}`, EXIT.usage);
      if (approval?.kind === 'plan' || approval?.kind === 'dialog' || approval?.kind === 'block') throw new CliError(`${id} is a ${approval.kind}: ${answerHint(approval, advise)}`, EXIT.usage);
      return decided(await post(conn, id, { decision: opts.always ? 'allow-always' : 'allow' }), approval, opts);
    }
    case 'deny': {
      if (rest.length !== 1) throw new CliError(usage('deny'), EXIT.usage);
      const id = rest[0] as string;
      const conn = connect(opts.dataDir);
      const approval = await findApproval(conn, id);
      const body: DecisionBody = { decision: 'deny', ...(opts.message !== undefined ? { message: opts.message } : {}) };
      return decided(await post(conn, id, body), approval, opts);
    }
    case 'answer': {
      if (rest.length < 2) throw new CliError(usage('answer'), EXIT.usage);
      const [id, ...labels] = rest as [string, ...string[]];
      const conn = connect(opts.dataDir);
      const approval = await findApproval(conn, id);
      // Not open: the agent still says why (already answered, or no such approval). `answers: {}`
      // is a body no open approval would take, so nothing is decided by it.
      const body: DecisionBody = approval ? answerBody(approval, labels, advise) : { decision: 'answer', answers: {} };
      return decided(await post(conn, id, body), approval, opts);
    }
    default:
      throw new CliError(`unknown command "${args.join(' ')}"`, EXIT.usage);
  }
}

async function openApprovals(conn: Connection): Promise<Approval[]> {
  return (await call<{ approvals: Approval[] }>(conn, API_ROUTES.approvals)).approvals;
}

async function findApproval(conn: Connection, id: string): Promise<Approval | undefined> {
  return (await openApprovals(conn)).find((a) => a.id === id);
}

async function post(conn: Connection, id: string, body: DecisionBody): Promise<ApprovalResolution> {
  return (await call<{ resolution: ApprovalResolution }>(conn, API_ROUTES.decideApproval, id, body)).resolution;
}

const DONE_WORDS: Partial<Record<ApprovalOutcome, string>> = {
  approved: 'approved',
  'approved-always': 'approved always',
  denied: 'denied',
  answered: 'answered',
};

function decided(resolution: ApprovalResolution, approval: Approval | undefined, opts: ApprovalCliOptions): number {
  if (opts.json) {
    out(`${visibleJson(resolution, 2)}\n`);
    return EXIT.ok;
  }
  const words = DONE_WORDS[resolution.outcome] ?? resolution.outcome;
  const what = approval ? ` (${approval.summary.title})` : '';
  out(`${visibleText(`${words} ${resolution.id}${what}`)}\n`);
  return EXIT.ok;
}

// Answers.

/** What `answer ID LABEL...` means for this approval, or a usage error saying what it takes. */
export function answerBody(approval: Approval, labels: string[], advise: Advise = adviseDefault): DecisionBody {
  const id = approval.id;
  if (labels.some((l) => l.trim() === '')) throw new CliError('an answer cannot be empty', EXIT.usage);
  switch (approval.kind) {
    case 'permission':
      throw new CliError(`${id} asks to run a tool: use ${advise(`approve ${id}`)} or ${advise(`deny ${id}`)}`, EXIT.usage);
    case 'question': {
      const asked = approval.questions;
      if (labels.length !== asked.length) {
        const n = asked.length === 1 ? 'one question' : `${asked.length} questions`;
        throw new CliError(`${id} asks ${n}: give one answer for each, in order (${labels.length} given)`, EXIT.usage);
      }
      // From entries: a question called `__proto__` stays a key, where assigning it would not.
      const answers = Object.fromEntries(asked.map((q, i) => [q.question, answerFor(q, labels[i] as string)]));
      return { decision: 'answer', answers };
    }
    case 'plan':
    case 'dialog':
    case 'block': {
      if (labels.length !== 1) throw new CliError(`${id} takes one option: ${answerHint(approval, advise)}`, EXIT.usage);
      const given = (labels[0] as string).trim();
      if (approval.options.length === 0) {
        // The options could not be read from the screen: the number typed is taken as it is.
        if (/^[0-9]{1,2}$/.test(given)) return { decision: 'answer', option: given };
        throw new CliError(`${id} takes an option number`, EXIT.usage);
      }
      const option =
        approval.options.find((o) => o.key === given) ?? approval.options.find((o) => o.label.trim().toLowerCase() === given.toLowerCase());
      if (!option) {
        const choices = approval.options.map((o) => `${o.key} (${o.label})`).join(', ');
        throw new CliError(`${id} has no option ${JSON.stringify(given)}; choose one of ${choices}`, EXIT.usage);
      }
      return { decision: 'answer', option: option.key };
    }
  }
}

/**
 * One question's answer: an option by its label (any case) or its number; for a multi-select
 * several, comma-separated, joined by ", " as Claude expects; anything else is free text, as
 * typed in Claude's own "Type something".
 */
function answerFor(q: ApprovalQuestion, given: string): string {
  const pick = (part: string): string => {
    const p = part.trim();
    const byLabel = q.options.find((o) => o.label.trim().toLowerCase() === p.toLowerCase());
    if (byLabel) return byLabel.label;
    if (/^[0-9]+$/.test(p)) {
      const byNumber = q.options[Number(p) - 1];
      if (byNumber) return byNumber.label;
    }
    return p;
  };
  if (!q.multiSelect) return pick(given);
  return given
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map(pick)
    .join(', ');
}

function answerHint(approval: Approval, advise: Advise): string {
  if (approval.kind === 'question') {
    const n = approval.questions.length;
    return `answer it with: ${advise(`answer ${approval.id} ${n === 1 ? 'LABEL' : Array.from({ length: n }, (_, i) => `LABEL${i + 1}`).join(' ')}`)}`;
  }
  if (approval.kind === 'plan' || approval.kind === 'dialog') return `answer it with: ${advise(`answer ${approval.id} N`)} (N: the option's number)`;
  if (approval.kind === 'block') return `answer it with: ${advise(`answer ${approval.id} retry`)} or ${advise(`answer ${approval.id} dismiss`)}`;
  return `${advise(`approve ${approval.id}${approval.alwaysAllow ? ' [--always]' : ''}`)} or ${advise(`deny ${approval.id} [--message TEXT]`)}`;
}

// Listing.

function age(createdAt: number, now: number): string {
  const s = Math.max(0, Math.round((now - createdAt) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Lines of text from elsewhere, each made visible and indented; long ones cut short. */
function block(text: string, indent: string, maxLines = 12): string[] {
  const lines = text.split('\n');
  const shown = lines.slice(0, maxLines).map((l) => `${indent}${visibleText(l)}`);
  if (lines.length > maxLines) shown.push(`${indent}… ${lines.length - maxLines} more lines`);
  return shown;
}

function describe(a: Approval, now: number, advise: Advise): string {
  const lines = [visibleText(`${a.id}  ${a.kind}  ${a.tool ?? '-'}  tab ${a.tabId}  ${age(a.createdAt, now)} ago`)];
  const { title, description, body, path } = a.summary;
  // A question's title is its first question, shown in full below.
  if (a.questions.length === 0) lines.push(...block(title, '  ', 1));
  if (description) lines.push(...block(description, '  '));
  // The whole command (or input) when the title had to shorten it.
  if (body && !title.includes(body)) lines.push(...block(body, '    '));
  if (path && !title.includes(path) && !(body ?? '').includes(path)) lines.push(`  file: ${visibleText(path)}`);
  if (a.summary.diff && a.summary.diff.length > 0) lines.push(`  (a change of ${a.summary.diff.length} lines; see it on the phone or in the terminal)`);
  a.questions.forEach((q, i) => {
    const header = q.header ? `[${q.header}] ` : '';
    lines.push(`  ${a.questions.length > 1 ? `Q${i + 1} ` : ''}${visibleText(`${header}${q.question}`)}${q.multiSelect ? ' (several, comma-separated)' : ''}`);
    q.options.forEach((o, j) => {
      lines.push(`    ${j + 1}. ${visibleText(o.label)}${o.description ? ` - ${visibleText(o.description)}` : ''}`);
    });
    lines.push('    or any other text');
  });
  if (a.kind === 'plan' || a.kind === 'dialog' || a.kind === 'block') {
    for (const o of a.options) lines.push(`    ${visibleText(o.key)}. ${visibleText(o.label)}`);
    if (a.options.length === 0) lines.push('  (its options could not be read; see the terminal)');
  }
  if (a.alwaysAllow) lines.push(`  always allow: ${visibleText(a.alwaysAllow)}`);
  lines.push(`  → ${answerHint(a, advise)}`);
  return lines.join('\n');
}

function listing(list: Approval[], advise: Advise): string {
  if (list.length === 0) return 'no open approvals\n';
  const now = Date.now();
  return `${list.map((a) => describe(a, now, advise)).join('\n\n')}\n`;
}

// Waiting.

/**
 * The open approvals once there is at least one. Told by the agent's `/api/status` channel as
 * they open; polled instead when the channel cannot be used (or closes while waiting).
 */
async function awaitApprovals(conn: Connection, timeoutS: number): Promise<Approval[]> {
  const deadline = Date.now() + timeoutS * 1000;
  const seen = await watchStatus(conn, deadline);
  if (seen === 'timed-out') throw timedOut(timeoutS);
  if (seen !== 'unavailable') return seen;
  for (;;) {
    const list = await openApprovals(conn);
    if (list.length > 0) return list;
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut(timeoutS);
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, left)));
  }
}

function timedOut(timeoutS: number): CliError {
  return new CliError(`no approval opened within ${timeoutS} s`, EXIT.timedOut);
}

const APPROVAL_MESSAGES = new Set(['status:sync', 'approval-opened', 'approval-resolved']);

/** The WebSocket client and the status schemas, loaded only by `--wait`: no other approval command uses them. */
async function statusChannelCode() {
  const [{ default: WebSocket }, { StatusServerMessage }] = await Promise.all([import('ws'), import('../../protocol/status.js')]);
  return { WebSocket, StatusServerMessage };
}

async function watchStatus(conn: Connection, deadline: number): Promise<Approval[] | 'timed-out' | 'unavailable'> {
  const { WebSocket, StatusServerMessage } = await statusChannelCode();
  return new Promise((resolve) => {
    const open = new Map<string, Approval>();
    const ws = new WebSocket(`${conn.base.replace(/^http/, 'ws')}${CHANNEL_PATHS.status}`, {
      headers: { [CLI_TOKEN_HEADER]: conn.token },
      handshakeTimeout: 10_000,
      maxPayload: 64 * 1024 * 1024,
    });
    let done = false;
    const finish = (result: Approval[] | 'timed-out' | 'unavailable') => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => finish('timed-out'), Math.max(0, deadline - Date.now()));
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      let raw: unknown;
      try {
        raw = JSON.parse(String(data));
      } catch {
        return;
      }
      if (!APPROVAL_MESSAGES.has((raw as { type?: unknown } | null)?.type as string)) return;
      const parsed = safeParse(StatusServerMessage, raw);
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === 'status:sync') {
        open.clear();
        for (const a of msg.approvals) open.set(a.id, a);
      } else if (msg.type === 'approval-opened') open.set(msg.approval.id, msg.approval);
      else if (msg.type === 'approval-resolved') open.delete(msg.resolution.id);
      if (open.size > 0) finish([...open.values()].sort((a, b) => a.createdAt - b.createdAt));
    });
    ws.on('error', () => finish('unavailable'));
    ws.on('close', () => finish('unavailable'));
  });
}
