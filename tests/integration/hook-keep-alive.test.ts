/**
 * HTTP hooks on a kept-alive connection: a hook sent on a connection that sat idle for longer
 * than Node's default keep-alive timeout (5 s, and the second Node adds) must still be taken.
 * With that default the agent closed such a connection just as the client picked it for its
 * next hook; the post was reset (ECONNRESET), Claude does not retry a hook, and the event was
 * lost. The load test (tests/load/hook-load.test.ts) lost events so.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupAgents, startAgent } from '../support/agent.js';
import { claim, createTab } from '../support/client.js';
import { capturedHook, paneEnv, StatusClient } from '../support/status.js';

afterAll(cleanupAgents);

/** Blocks this thread without spinning: the client cannot notice anything the agent does meanwhile. */
function blockFor(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe('HTTP hooks on a kept-alive connection', () => {
  it('takes a hook sent on a connection idle for 7 s', async () => {
    const agent = await startAgent();
    const session = await claim(agent);
    const tab = await createTab(session);
    const env = await paneEnv(agent, tab);
    const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
    const client = new StatusClient(session);
    await client.opened;

    // One connection, kept alive with no idle timeout of its own, as an HTTP client that
    // leaves closing an idle connection to the server does.
    const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (event: string) =>
      new Promise<{ status: number; reused: boolean } | { error: string }>((resolve) => {
        const req = request(
          new URL(`/hooks/${event}`, agent.url),
          {
            method: 'POST',
            agent: keepAlive,
            headers: { 'content-type': 'application/json', 'x-pocketmux-token': token, 'x-pocketmux-pane': env.TMUX_PANE, 'x-pocketmux-tmux': env.TMUX },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
          },
        );
        req.on('error', (err) => resolve({ error: (err as NodeJS.ErrnoException).code ?? err.message }));
        req.end(JSON.stringify(capturedHook(event)));
      });

    expect(await post('UserPromptSubmit')).toEqual({ status: 204, reused: false });
    await client.waitState(tab.id, 'busy');
    // Idle past the old timeout, then the next hook at once, on the connection the client
    // still holds (its thread was blocked: it could not have seen the agent close it).
    blockFor(7_000);
    const second = await post('Stop');
    keepAlive.destroy();
    expect(second).toEqual({ status: 204, reused: true });
    await client.waitState(tab.id, 'ready-for-review');
    client.ws.close();
  });
});
