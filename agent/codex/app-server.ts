/**
 * A short conversation with `codex app-server` (JSON-RPC, one JSON object a line on stdin and
 * stdout): Codex writes its own config.toml, so pocketmux never edits that TOML itself. Used by
 * `pocketmux hooks install --codex` to trust exactly the hooks it added, and by `status` to ask
 * Codex whether they are trusted. Verified with Codex 0.169.0.
 */
import { spawn } from 'node:child_process';
import { z } from 'zod';
import { safeParse } from '../../protocol/safe-parse.js';

export class CodexAppServerError extends Error {}

/** The longest a line from the server may be; longer is not Codex. */
const MAX_LINE = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
/** How long a closed server may take to exit before it is killed outright. */
const CLOSE_GRACE_MS = 5_000;

const Reply = z.object({ id: z.number(), result: z.unknown().optional(), error: z.object({ message: z.string() }).passthrough().optional() });

export interface CodexAppServer {
  call(method: string, params: unknown): Promise<unknown>;
  /** Ends the server and waits until it has exited (it writes under CODEX_HOME as it ends). */
  close(): Promise<void>;
}

/**
 * Starts `codex app-server` with `env` (its CODEX_HOME is where it reads and writes) and says
 * hello. Every call fails after `timeoutMs`, and so does a server that exits.
 */
export async function openCodexAppServer(bin: string, env: NodeJS.ProcessEnv, cwd: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<CodexAppServer> {
  const child = spawn(bin, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (err: Error) => void }>();
  let stderr = '';
  let gone: Error | null = null;
  const fail = (err: Error) => {
    gone ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  child.on('error', (err) => fail(new CodexAppServerError(`could not start ${bin} app-server: ${err.message}`)));
  child.on('exit', (code) => fail(new CodexAppServerError(`codex app-server exited (${code})${stderr.trim() ? `: ${stderr.trim().split('\n').at(-1)?.slice(0, 300)}` : ''}`)));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr = (stderr + d).slice(-4096);
  });
  let buffer = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffer += d;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      const reply = safeParse(Reply, message);
      if (!reply.success) continue;
      const w = waiting.get(reply.data.id);
      if (!w) continue;
      waiting.delete(reply.data.id);
      if (reply.data.error) w.reject(new CodexAppServerError(`codex app-server refused: ${reply.data.error.message.slice(0, 300)}`));
      else w.resolve(reply.data.result);
    }
    if (buffer.length > MAX_LINE) {
      fail(new CodexAppServerError('codex app-server sent a line too long'));
      child.kill();
    }
  });
  let next = 1;
  const call = (method: string, params: unknown): Promise<unknown> => {
    if (gone) return Promise.reject(gone);
    const id = next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new CodexAppServerError(`codex app-server did not answer ${method} within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  };
  // A binary that could not start says so through 'error' and may never close.
  const exited = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
    child.once('error', () => resolve());
  });
  const close = async () => {
    child.stdin.end();
    if (child.exitCode === null && child.signalCode === null) child.kill();
    const hard = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await exited;
    clearTimeout(hard);
  };
  try {
    await call('initialize', { clientInfo: { name: 'pocketmux', version: '1' } });
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
  } catch (err) {
    await close();
    throw err;
  }
  return { call, close };
}

const HooksList = z.object({
  data: z.array(z.object({ hooks: z.array(z.object({ key: z.string(), trustStatus: z.string(), currentHash: z.string().optional() }).passthrough()) }).passthrough()),
});

/** Each hook Codex knows for `cwd`, by key: whether it is trusted, and its hash. */
export async function codexHookTrust(server: CodexAppServer): Promise<Map<string, { trusted: boolean; hash: string | null }>> {
  const parsed = safeParse(HooksList, await server.call('hooks/list', {}));
  if (!parsed.success) throw new CodexAppServerError('codex app-server answered hooks/list with something else than hooks');
  const out = new Map<string, { trusted: boolean; hash: string | null }>();
  for (const group of parsed.data.data) for (const h of group.hooks) out.set(h.key, { trusted: h.trustStatus === 'trusted', hash: h.currentHash ?? null });
  return out;
}

/** Codex writes the trust of these hooks (key → hash) into its config.toml, merged with what is there. */
export async function trustCodexHooks(server: CodexAppServer, trust: readonly { key: string; hash: string }[]): Promise<void> {
  if (trust.length === 0) return;
  const value = Object.fromEntries(trust.map((t) => [t.key, { trusted_hash: t.hash }]));
  await server.call('config/value/write', { keyPath: 'hooks.state', value, mergeStrategy: 'upsert' });
}

/**
 * Codex forgets the trust of these hook keys. A key holding a quote or a backslash cannot be
 * named in Codex's key path; it is left (a trust entry for a hook that is gone runs nothing).
 */
export async function untrustCodexHooks(server: CodexAppServer, keys: readonly string[]): Promise<string[]> {
  const left: string[] = [];
  for (const key of keys) {
    if (/["\\\p{Cc}]/u.test(key)) {
      left.push(key);
      continue;
    }
    await server.call('config/value/write', { keyPath: `hooks.state."${key}"`, value: null, mergeStrategy: 'replace' });
  }
  return left;
}
