import { HOOK_HEADERS, HOOK_PATH_PREFIX, receivedHeader, STATUSLINE_HOOK, outsideSessionKey } from '../../protocol/hook-contract.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApprovalResolution } from '../../protocol/approvals.js';
import { basename } from 'node:path';
import { StatusLineReport } from '../../protocol/hooks.js';
import { type AgentKind, isAgentKind } from '../../protocol/agents.js';
import type { AgentClis } from '../agents/agent-cli.js';
import type { HeldHook } from '../approvals/approval-store.js';
import type { HookDecision } from '../approvals/decision.js';
import type { PermissionRequestPayload } from '../approvals/from-hooks.js';
import type { OutsideSessions } from '../outside/outside-sessions.js';
import { isLoopback, tokenMatches } from '../auth/access.js';
import type { ConnectionProof } from '../auth/connection-guard.js';
import { TURN_RECORD_WAIT_MS } from '../config/limits.js';
import type { StatusManager } from '../status/status-manager.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import type { HookApprovals } from '../wiring/hook-approvals.js';
import type { TurnStarts } from '../wiring/turn-changes.js';
import { safeParse } from '../../protocol/safe-parse.js';


/** `$TMUX` is `<socket path>,<server pid>,<session>`; pane ids only mean something on our server. */
export function fromOurTmux(tmuxEnv: string | undefined, socketName: string): boolean {
  if (!tmuxEnv) return false;
  return basename(tmuxEnv.split(',')[0] ?? '') === socketName;
}

/**
 * Who delivered a hook, told by its User-Agent: Claude's own HTTP hook (axios), the hook
 * script (curl), or anything else on this machine holding the token. Both hook kinds are
 * handled alike; this is only reported, to see which kind a claude uses.
 */
export type HookSender = 'claude-http' | 'hook-script' | 'other';

export function hookSender(userAgent: string | undefined): HookSender {
  if (userAgent?.startsWith('axios/')) return 'claude-http';
  if (userAgent?.startsWith('curl/')) return 'hook-script';
  return 'other';
}

/** Which CLI's hook a log line tells of: named for any but Claude's, whose lines read as they always did. */
function whose(agent: AgentKind): { agent?: AgentKind } {
  return agent === 'claude' ? {} : { agent };
}

/** Hook payloads carry tool inputs (a whole file for Write); anything past this (2 MiB) is not a hook. */
export const HOOK_BODY_BYTES = 2 * 1024 * 1024;

/** A JSON reply: the only kind the intake (and the server's Host refusal) sends, besides empty ones. */
export function replyJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, error: string): void {
  replyJson(res, status, { error });
}

/** A request the intake refuses before or while reading its body, with the status it gets. */
class HookRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The body as JSON, read up to `HOOK_BODY_BYTES`: a larger one (declared or streamed) is
 * refused with 413 before it is all read. Only an object or an array is JSON here, as a
 * hook's payload is one; anything else, or no body, is a 400.
 */
export function readJsonBody(req: IncomingMessage, limit = HOOK_BODY_BYTES): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      reject(new HookRequestError(415, 'a compressed body (Content-Encoding) is not taken: send the JSON as it is'));
      return;
    }
    const tooLarge = () => new HookRequestError(413, `request entity too large: over ${limit} bytes`);
    const declared = Number(req.headers['content-length']);
    if (declared > limit) {
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('error', reject);
    // A client gone before the end: the request is over, nothing waits on it.
    req.once('close', () => {
      if (!req.complete) reject(new HookRequestError(400, 'the body ended before it was complete'));
    });
    req.once('end', () => {
      if (size > limit) return;
      const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString('utf8');
      const first = /\S/.exec(text)?.[0];
      if (first !== '{' && first !== '[') {
        reject(new HookRequestError(400, first === undefined ? 'no body: a hook posts a JSON object' : 'invalid JSON: a hook posts a JSON object'));
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch (err) {
        reject(new HookRequestError(400, `invalid JSON: ${(err as Error).message}`));
      }
    });
  });
}

/** Waits for `work`, at most `ms`; never rejects. */
function within(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.catch(() => undefined).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export interface HookRouteDeps {
  token: string;
  tmuxSocket: string;
  tabs: TabService;
  /** The agent CLIs whose hooks arrive here, each read by its own schemas. */
  clis: AgentClis;
  status: StatusManager;
  /** Sessions whose pane is not one of the tabs (or that run in no tmux at all). */
  outside: OutsideSessions;
  /** Whether someone has an outside session's tmux session on screen (a client attached to it); false outside tmux. */
  outsideTerminalOpen?: (key: string) => Promise<boolean>;
  /** What the hooks do to the approvals (agent/wiring/hook-approvals.ts). */
  approvals: HookApprovals;
  /** Told of a request with the token: its connection is no longer one that proved nothing. */
  connections: ConnectionProof;
  /** Words for Claude to hear with a prompt a phone sent (agent/wiring/phone-prompts.ts), or null. */
  promptContext: (key: string, prompt: string) => string | null;
  /** Where each session and turn starts, for review (agent/changes/session-changes.ts). */
  starts: TurnStarts;
  log: Logger;
}

/**
 * The response Claude's PermissionRequest hook waits on, as a held hook: answered once, with
 * Claude's decision JSON or with an empty 200 (no decision: the dialog stays to the person).
 * The hook script's curl prints the same body, so both hook kinds decide alike.
 */
function heldResponse(res: ServerResponse, log: Logger): HeldHook {
  const since = performance.now();
  return {
    reply(decision: HookDecision | null, resolution?: ApprovalResolution) {
      if (res.writableEnded || res.destroyed) return;
      if (decision) replyJson(res, 200, decision);
      else res.writeHead(200, { 'content-length': 0 }).end();
      log.debug('hook answered', { id: resolution?.id ?? null, outcome: resolution?.outcome ?? null, decided: decision !== null, heldMs: Math.round(performance.now() - since) });
    },
  };
}

/** Handles a request under `/hooks/`; the server hands every such request here, not to the app. */
export type HookIntake = (req: IncomingMessage, res: ServerResponse) => void;

/** Whether a request's URL is the hook intake's. */
export function isHookUrl(url: string | undefined): boolean {
  return url?.startsWith(`${HOOK_PATH_PREFIX}/`) === true;
}

/**
 * `POST /hooks/<event>`: where Claude's HTTP hooks and hook.sh deliver its events, read the
 * same way (same headers, same body). Only from this machine, only with the hook token, never
 * from a browser page (any Origin is refused), and every body through the schemas in
 * protocol/. A refused request changes nothing.
 *
 * Plain Node, not an Express router: this is the agent's busiest path (a thousand events a
 * second under load), and Express's routing made a third of what each event allocated.
 */
export function hookIntake(deps: HookRouteDeps): HookIntake {
  const header = (req: IncomingMessage, name: (typeof HOOK_HEADERS)[keyof typeof HOOK_HEADERS]): string | undefined => {
    const value = req.headers[receivedHeader(name)];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };

  /**
   * A session outside the tabs: what this request tells of it. False when the session is not
   * taken (it ended: a report sent before its SessionEnd arrived after it), and then nothing
   * else is done with the request.
   */
  const reportOutside = (req: IncomingMessage, key: string, sessionId: string, cwd: string | undefined, start: boolean, agent: AgentKind = 'claude'): boolean =>
    deps.outside.report(key, { agent, sessionId, cwd, tmuxEnv: header(req, HOOK_HEADERS.tmux), pane: header(req, HOOK_HEADERS.pane), start });

  /**
   * The tab the reporting pane belongs to, when it is one of ours; `lookupFailed` when the pane
   * is on pocketmux's server but tmux could not be asked (a timeout under load): then it is
   * most likely a tab, and is not listed as a session outside the tabs (Adopt would end it).
   */
  const tabOf = async (req: IncomingMessage): Promise<{ tab: string | undefined; lookupFailed: boolean }> => {
    const pane = req.headers[receivedHeader(HOOK_HEADERS.pane)];
    const paneId = typeof pane === 'string' && /^%\d+$/.test(pane) ? pane : undefined;
    const tmuxEnv = req.headers[receivedHeader(HOOK_HEADERS.tmux)];
    if (!paneId || !fromOurTmux(typeof tmuxEnv === 'string' ? tmuxEnv : undefined, deps.tmuxSocket)) return { tab: undefined, lookupFailed: false };
    try {
      return { tab: await deps.tabs.tabForPane(paneId), lookupFailed: false };
    } catch (err) {
      deps.log.warn('could not tell which tab a hook came from', { error: (err as Error).message });
      return { tab: undefined, lookupFailed: true };
    }
  };

  const statusLine = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const parsed = safeParse(StatusLineReport, body);
    if (!parsed.success) {
      return refuse(res, 400, `invalid statusline report: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ')}`);
    }
    const { tab, lookupFailed } = await tabOf(req);
    const key = tab ?? outsideSessionKey(parsed.data.session_id);
    if (!tab && !lookupFailed && !reportOutside(req, key, parsed.data.session_id, parsed.data.cwd, false)) return void res.writeHead(204).end();
    deps.status.applyUsage(key, parsed.data);
    res.writeHead(204).end();
  };

  /** Whether someone has the session's terminal on screen: a tab's, or an outside session's in the person's tmux. */
  const terminalOpen = (tab: string | undefined, key: string): Promise<boolean> =>
    (tab !== undefined ? deps.tabs.terminalOpen(tab) : (deps.outsideTerminalOpen?.(key) ?? Promise.resolve(false))).catch(() => false);

  const hookEvent = async (req: IncomingMessage, res: ServerResponse, agent: AgentKind, event: string, body: unknown): Promise<void> => {
    const reading = deps.clis[agent].readHook(event, body);
    if (!reading.ok) return refuse(res, 400, reading.error);
    const { tab, lookupFailed } = await tabOf(req);
    const common = reading.payload;
    if (tab) deps.tabs.noteSession(tab, common.session_id);
    const key = tab ?? outsideSessionKey(common.session_id);
    const start = reading.kind === 'event' && reading.payload.hook_event_name === 'SessionStart';
    if (!tab && !lookupFailed && !reportOutside(req, key, common.session_id, common.cwd, start, agent)) {
      deps.log.debug('hook of an ended session ignored', { event, key });
      // No decision, for a PermissionRequest too: the person answers in the terminal.
      return void res.writeHead(204).end();
    }
    if (reading.kind !== 'event') {
      if (reading.kind === 'interrupt') deps.status.apply(key, { kind: 'interrupt', at: Date.now() });
      deps.log.debug('hook received', { ...whose(agent), event, key });
      return void res.writeHead(204).end();
    }
    const payload = reading.payload;
    deps.status.applyHook(key, payload);
    deps.log.debug('hook received', { ...whose(agent), event, key, pane: req.headers[receivedHeader(HOOK_HEADERS.pane)] ?? null, sender: hookSender(req.headers['user-agent']) });
    if (payload.hook_event_name === 'PermissionRequest') {
      // Terminal first: with its terminal open, a CLI that draws no dialog while its hook waits
      // (Codex) is let go at once, so the person there sees its dialog; the card answers it by keys.
      const drawnOnRelease = deps.clis[agent].dialogWaitsForHook && (tab !== undefined || deps.outside.get(key)?.tmux != null);
      if (drawnOnRelease && (await terminalOpen(tab, key))) {
        res.writeHead(204).end();
        return deps.approvals.showOnScreen(key, payload);
      }
      return holdForApproval(res, key, payload, drawnOnRelease);
    }
    deps.approvals.afterEvent(key, tab !== undefined, payload);
    if (payload.cwd !== undefined && payload.hook_event_name === 'SessionStart' && payload.source !== 'compact') void deps.starts.sessionStarted(key, payload.cwd);
    // Claude waits on this hook before it sends the prompt: recorded now, the turn's start
    // comes before any edit of the turn.
    if (payload.cwd !== undefined && payload.hook_event_name === 'UserPromptSubmit') await within(deps.starts.turnStarted(key, payload.cwd), TURN_RECORD_WAIT_MS);
    if (payload.hook_event_name === 'Stop' || payload.hook_event_name === 'StopFailure') deps.starts.turnEnded(key);
    const context = payload.hook_event_name === 'UserPromptSubmit' && deps.clis[agent].takesPromptContext ? deps.promptContext(key, payload.prompt) : null;
    if (context !== null) return replyJson(res, 200, { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } });
    // No body: the script prints nothing, and Claude reads an HTTP hook's empty 2xx body as
    // an empty JSON object, so neither makes a decision.
    res.writeHead(204).end();
  };

  /**
   * Claude shows its dialog and waits on this response at the same time; whichever is answered
   * first wins. The response is held until the approval is settled (or let go at once: see
   * HookApprovals.hold).
   */
  const holdForApproval = (res: ServerResponse, key: string, payload: PermissionRequestPayload, drawnOnRelease: boolean): void => {
    const approval = deps.approvals.hold(key, payload, heldResponse(res, deps.log), drawnOnRelease);
    if (!approval) return;
    // Claude stopped waiting. Seen with the real CLI: "No" or Esc in the dialog closes the
    // hook's request (a "Yes" leaves it open); an exit says SessionEnd before its connections
    // go, and settles the approval as claude-exited first.
    res.on('close', () => {
      if (res.writableFinished) return;
      deps.log.debug('hook request closed by claude', { id: approval.id });
      deps.approvals.hookClosed(approval.id);
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // The token is checked before the body is read: a request without it costs nothing more.
    if (!isLoopback(req.socket.remoteAddress)) return refuse(res, 403, 'hooks are accepted from this machine only');
    if (req.headers.origin !== undefined) return refuse(res, 403, 'hooks never come from a browser');
    const token = req.headers[receivedHeader(HOOK_HEADERS.token)];
    if (!tokenMatches(typeof token === 'string' ? token : undefined, deps.token)) return refuse(res, 401, 'missing or wrong hook token');
    deps.connections.proven(req);
    const path = (req.url ?? '').slice(HOOK_PATH_PREFIX.length + 1).split('?', 1)[0] as string;
    // `<event>` is Claude's; `<agent>/<event>` another agent CLI's (agentHookPath).
    const [first = '', second, ...more] = path.split('/');
    const agent = second === undefined ? 'claude' : first;
    const event = second ?? first;
    if (event === '' || more.length > 0 || !isAgentKind(agent) || (second !== undefined && agent === 'claude')) {
      return refuse(res, 404, `no hook intake here: hooks are posted to ${HOOK_PATH_PREFIX}/<event> (Claude) or ${HOOK_PATH_PREFIX}/<agent>/<event>`);
    }
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return refuse(res, 405, 'hooks are posted (POST)');
    }
    // Any content type: the script and Claude's HTTP hook both send application/json, but a
    // payload is read as JSON whatever it is labelled.
    const body = await readJsonBody(req);
    if (agent === 'claude' && event === STATUSLINE_HOOK) return statusLine(req, res, body);
    return hookEvent(req, res, agent, event, body);
  };

  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (res.headersSent) return;
      if (err instanceof HookRequestError) return refuse(res, err.status, err.message);
      deps.log.error('hook intake failed', { error: (err as Error).message });
      refuse(res, 500, 'internal error; see the agent log');
    });
  };
}
