import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { isAgentKind } from '../../protocol/agents.js';
import type { DevicesResponse, PairingResponse, TabView, WorkspacesResponse, WorkspaceView } from '../../protocol/api.js';
import { API_ROUTES, type ApiRoute, routePath } from '../../protocol/routes.js';
import { advisedCommand } from '../config/command-name.js';
import { shellTabText } from './shell-tab-text.js';
import { visibleJson, visibleText } from '../../protocol/safe-text.js';
import { CLAUDE_STATES, type ClaudeState } from '../../protocol/claude-state.js';
import type { TabStatus } from '../../protocol/status.js';
import { CLI_TOKEN_HEADER } from '../auth/access.js';
import { dataPaths } from '../config/paths.js';
import { dataDirProblem } from '../config/data-dir-check.js';

/** Exit codes of the script commands, so callers can tell failures apart. */
export const EXIT = { ok: 0, failed: 1, usage: 2, notRunning: 3, timedOut: 4 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export interface Connection {
  base: string;
  token: string;
  /** The data dir it was found by, for the commands messages advise. */
  dataDir: string;
}

/** The running agent of a data dir: its port file and its local token. */
export function connect(dataDir: string): Connection {
  const paths = dataPaths(dataDir);
  let port: string;
  let token: string;
  try {
    port = readFileSync(paths.port, 'utf8').trim();
    token = readFileSync(paths.hookToken, 'utf8').trim();
  } catch {
    const refused = dataDirProblem(dataDir);
    if (refused) throw new CliError(refused, EXIT.usage);
    throw new CliError(`no pocketmux agent is running for ${dataDir} (start one with: ${advisedCommand('start', dataDir)})`, EXIT.notRunning);
  }
  if (!/^\d+$/.test(port)) throw new CliError(`the port file ${paths.port} is damaged; restart the agent`, EXIT.notRunning);
  return { base: `http://127.0.0.1:${port}`, token, dataDir };
}

interface Answer {
  status: number;
  ok: boolean;
  text: string;
}

/**
 * One HTTP request and its whole answer, over node:http: `fetch` would load and start undici
 * (and its WebAssembly parser) on every call of a command that makes one or two requests.
 */
function send(url: string, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({ status, ok: status >= 200 && status < 300, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One request to the agent; a refusal becomes a `CliError` with the agent's own reason. */
export async function call<T>(conn: Connection, route: ApiRoute, id?: string, body?: unknown, query?: Record<string, string>): Promise<T> {
  let res: Answer;
  const search = query === undefined ? '' : `?${new URLSearchParams(query).toString()}`;
  try {
    res = await send(
      `${conn.base}${routePath(route, id)}${search}`,
      route.method,
      { [CLI_TOKEN_HEADER]: conn.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body === undefined ? undefined : JSON.stringify(body),
      30_000,
    );
  } catch {
    throw new CliError(`the agent at ${conn.base} does not answer; is it running? (${advisedCommand('start', conn.dataDir)})`, EXIT.notRunning);
  }
  const text = res.text;
  let parsed: unknown;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    throw new CliError(`${conn.base} answered HTTP ${res.status} with something other than JSON; is another program on the agent's port?`, EXIT.failed);
  }
  if (!res.ok) {
    const message = (parsed as { error?: string } | undefined)?.error ?? `HTTP ${res.status}`;
    throw new CliError(message, EXIT.failed);
  }
  return parsed as T;
}

export interface TabRow {
  id: string;
  kind: TabView['kind'];
  workspace: string;
  name: string | null;
  title: string | null;
  cwd: string;
  alive: boolean;
  state: ClaudeState | null;
  claudeRunning: boolean | null;
}

async function rows(conn: Connection): Promise<TabRow[]> {
  const [{ workspaces }, { tabs: status }] = await Promise.all([
    call<WorkspacesResponse>(conn, API_ROUTES.workspaces),
    call<{ tabs: Record<string, TabStatus> }>(conn, API_ROUTES.status),
  ]);
  return workspaces.flatMap((ws) =>
    ws.tabs.map((t) => ({
      id: t.id,
      kind: t.kind,
      workspace: ws.name,
      name: t.name,
      title: t.title ? t.title.command : null,
      cwd: t.title?.path || t.cwd,
      alive: t.alive,
      state: status[t.id]?.state ?? null,
      claudeRunning: status[t.id]?.claudeRunning ?? null,
    })),
  );
}

function table(list: TabRow[]): string {
  if (list.length === 0) return 'no tabs\n';
  const lines = list.map((r) =>
    [r.id, r.kind, isAgentKind(r.kind) ? (r.claudeRunning === false ? 'not-running' : (r.state ?? '-')) : '-', r.workspace, r.name ?? r.title ?? '', r.cwd].map(visibleText),
  );
  const header = ['ID', 'KIND', 'STATE', 'WORKSPACE', 'NAME', 'DIRECTORY'];
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] as number))).join('  ');
  return `${[fmt(header), ...lines.map(fmt)].join('\n')}\n`;
}

export interface RemoteOptions {
  dataDir: string;
  json: boolean;
  claude: boolean;
  /** `tab new --codex`: a Codex tab. */
  codex: boolean;
  name?: string | undefined;
  permissionMode?: string | undefined;
  resume?: string | undefined;
  waitFor?: string | undefined;
  timeoutS: number;
  enter: boolean;
}

const out = (text: string) => process.stdout.write(text);

/** `pocketmux tabs` and `pocketmux tab …`: the running agent, driven from scripts. */
export async function runRemote(args: string[], opts: RemoteOptions): Promise<number> {
  const conn = connect(opts.dataDir);
  const [command, sub, ...rest] = args;
  if (command === 'pair' && sub === undefined) {
    const pairing = await call<PairingResponse>(conn, API_ROUTES.newPairing);
    if (opts.json) {
      out(`${visibleJson({ url: pairing.url, code: pairing.code, expiresAt: pairing.expiresAt, validForSeconds: pairing.validForSeconds }, 2)}\n`);
      return EXIT.ok;
    }
    // The QR code's encoder is loaded only here: no other command draws one.
    const { pairingText, qrStyleFor } = await import('./pairing-text.js');
    out(await pairingText(pairing, { dataDir: opts.dataDir, qr: qrStyleFor(process.stdout, process.env) }));
    return EXIT.ok;
  }
  if (command === 'devices') {
    if (sub === undefined) {
      const { devices } = await call<DevicesResponse>(conn, API_ROUTES.devices);
      if (opts.json) out(`${visibleJson(devices, 2)}\n`);
      else if (devices.length === 0) out('no paired devices\n');
      else for (const d of devices) out(`${visibleText(`${d.id}  ${d.name}  (${d.platform || 'unknown'})  paired ${d.pairedAt}  last seen ${d.lastSeenAt ?? 'never'}`)}\n`);
      return EXIT.ok;
    }
    if (sub === 'revoke' && rest.length === 1) {
      await call(conn, API_ROUTES.revokeDevice, rest[0] as string);
      out(opts.json ? `${JSON.stringify({ ok: true })}\n` : `revoked ${visibleText(rest[0] as string)}\n`);
      return EXIT.ok;
    }
    throw new CliError(`usage: ${advisedCommand('devices [revoke ID]', opts.dataDir)}`, EXIT.usage);
  }
  if (command === 'tabs' && sub === undefined) {
    const list = await rows(conn);
    out(opts.json ? `${visibleJson(list, 2)}\n` : table(list));
    return EXIT.ok;
  }
  if (command !== 'tab') throw new CliError(`unknown command "${args.join(' ')}"`, EXIT.usage);
  switch (sub) {
    case 'new': {
      if (rest.length !== 1 || (opts.claude && opts.codex)) throw new CliError(`usage: ${advisedCommand('tab new [--claude | --codex] [--name N] DIR', opts.dataDir)}`, EXIT.usage);
      if (opts.codex && (opts.permissionMode || opts.resume)) throw new CliError('--permission-mode and --resume are for a Claude tab (--claude)', EXIT.usage);
      const dir = resolve(rest[0] as string);
      const { workspaces } = await call<WorkspacesResponse>(conn, API_ROUTES.workspaces);
      const ws = workspaces.find((w) => w.dir === dir) ?? (await call<WorkspaceView>(conn, API_ROUTES.createWorkspace, undefined, { dir }));
      const claude = opts.permissionMode || opts.resume ? { permissionMode: opts.permissionMode, resume: opts.resume } : undefined;
      const tab = await call<TabView>(conn, API_ROUTES.createTab, undefined, {
        workspaceId: ws.id,
        kind: opts.claude ? 'claude' : opts.codex ? 'codex' : 'shell',
        ...(opts.name ? { name: opts.name } : {}),
        ...(opts.claude && claude ? { claude } : {}),
      });
      out(opts.json ? `${visibleJson(tab, 2)}\n` : `${visibleText(tab.id)}\n`);
      return EXIT.ok;
    }
    case 'send': {
      if (rest.length !== 2) throw new CliError(`usage: ${advisedCommand('tab send ID TEXT', opts.dataDir)}`, EXIT.usage);
      await call(conn, API_ROUTES.tabInput, rest[0] as string, { text: rest[1], enter: opts.enter });
      if (opts.json) out(`${JSON.stringify({ ok: true })}\n`);
      return EXIT.ok;
    }
    case 'status': {
      if (rest.length !== 1) throw new CliError(`usage: ${advisedCommand('tab status ID [--wait-for STATE]', opts.dataDir)}`, EXIT.usage);
      const id = rest[0] as string;
      const wanted = opts.waitFor;
      if (wanted !== undefined && !(CLAUDE_STATES as readonly string[]).includes(wanted)) {
        throw new CliError(`--wait-for takes one of ${CLAUDE_STATES.join(', ')}`, EXIT.usage);
      }
      const deadline = Date.now() + opts.timeoutS * 1000;
      for (;;) {
        const row = (await rows(conn)).find((r) => r.id === id);
        if (!row) throw new CliError(`no tab ${id}`, EXIT.failed);
        // A shell tab has a state only while a claude in it reports: without one, waiting
        // would only wait out the timeout. A usage error: asked of the wrong kind of tab.
        if (wanted !== undefined && row.kind === 'shell' && row.state === null) {
          throw new CliError(
            `tab ${id} is a shell tab, and no claude in it reports, so it has no Claude state to wait for; ` +
              `wait on a Claude tab (${advisedCommand('tab new --claude DIR', opts.dataDir)}), or let a claude started in a shell tab report (${advisedCommand('hooks install', opts.dataDir)})`,
            EXIT.usage,
          );
        }
        if (wanted === undefined || row.state === wanted) {
          if (opts.json) out(`${visibleJson(row, 2)}\n`);
          else if (row.kind === 'shell' && row.state === null) out(shellTabText(row, process.env.SHELL));
          else out(`${visibleText(row.state ?? 'unknown')}\n`);
          return EXIT.ok;
        }
        if (Date.now() > deadline) throw new CliError(`tab ${id} is ${row.state ?? 'without status'}, not ${wanted}, after ${opts.timeoutS} s`, EXIT.timedOut);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    case 'close': {
      if (rest.length !== 1) throw new CliError(`usage: ${advisedCommand('tab close ID', opts.dataDir)}`, EXIT.usage);
      await call(conn, API_ROUTES.closeTab, rest[0] as string);
      if (opts.json) out(`${JSON.stringify({ ok: true })}\n`);
      return EXIT.ok;
    }
    default:
      throw new CliError(`unknown command "${args.join(' ')}"`, EXIT.usage);
  }
}

export function dataDirFrom(flag: string | undefined, env: NodeJS.ProcessEnv, expand: (p: string) => string): string {
  return resolve(expand(flag ?? env.POCKETMUX_DIR ?? '~/.pocketmux'));
}
