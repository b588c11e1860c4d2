/**
 * The talk with `codex app-server`, against a small stand-in binary speaking its JSON-RPC lines:
 * a closed server is waited for until it has exited, as codex writes under CODEX_HOME while it
 * ends, and a caller that removes that dir next must not see it written again.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodexAppServerError, openCodexAppServer } from '../../../../agent/codex/app-server.js';

const dir = mkdtempSync(join(tmpdir(), 'pocketmux-app-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A stand-in app-server: answers each request with its method; on SIGTERM writes `ended` a
 * moment later and exits, or (`ignore`) stays running until killed outright.
 */
function standIn(onTerm: 'write-then-exit' | 'ignore'): string {
  const bin = join(dir, `codex-${onTerm}`);
  writeFileSync(
    bin,
    `#!${process.execPath}
const { writeFileSync } = require('node:fs');
setInterval(() => {}, 1000);
let buffer = '';
process.stdin.on('data', (d) => {
  buffer += d;
  for (let i = buffer.indexOf('\\n'); i >= 0; i = buffer.indexOf('\\n')) {
    const m = JSON.parse(buffer.slice(0, i));
    buffer = buffer.slice(i + 1);
    if (m.id !== undefined) process.stdout.write(JSON.stringify({ id: m.id, result: { method: m.method } }) + '\\n');
  }
});
process.on('SIGTERM', () => {
  ${onTerm === 'ignore' ? '' : `setTimeout(() => { writeFileSync(${JSON.stringify(join(dir, 'ended'))}, 'state'); process.exit(0); }, 300);`}
});
`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

describe('codex app-server', () => {
  it('answers calls, and close waits for the server to finish what it writes as it ends', async () => {
    const server = await openCodexAppServer(standIn('write-then-exit'), { PATH: process.env.PATH }, dir);
    expect(await server.call('hooks/list', {})).toEqual({ method: 'hooks/list' });
    await server.close();
    expect(readFileSync(join(dir, 'ended'), 'utf8')).toBe('state');
  });

  it('kills a server that does not end when asked, and a call after close fails with why', async () => {
    const server = await openCodexAppServer(standIn('ignore'), { PATH: process.env.PATH }, dir);
    await server.close();
    await expect(server.call('hooks/list', {})).rejects.toThrow(CodexAppServerError);
    await expect(server.call('hooks/list', {})).rejects.toThrow(/exited/);
  }, 15_000);

  it('says a binary that is not there could not start, and leaves nothing running', async () => {
    const missing = join(dir, 'no-codex');
    await expect(openCodexAppServer(missing, { PATH: process.env.PATH }, dir)).rejects.toThrow(/could not start/);
    expect(existsSync(missing)).toBe(false);
  });
});
