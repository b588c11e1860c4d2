/**
 * Outside input whose `length` cannot become a number made zod throw rather than fail; every
 * parse at the edges goes through `safeParse`, which turns that into a refusal.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as mini from 'zod/mini';
import { parseClientMessage } from '../../../agent/channels/client-message.js';
import { HttpError, parse } from '../../../agent/http/routes/handler.js';
import { parseHookPayload } from '../../../protocol/hooks.js';
import { safeParse } from '../../../protocol/safe-parse.js';
import { StatusServerMessage } from '../../../protocol/status.js';
import { StatusClientMessage } from '../../../protocol/status-client.js';
import { parseServerMessage } from '../../../pwa/core/server-message.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** Plain JSON: own `toString` and `valueOf` that are not functions, so no primitive comes of it. */
const HOSTILE_TEXT = '{"length":{"toString":1,"valueOf":1}}';
const hostile = () => JSON.parse(HOSTILE_TEXT) as unknown;

describe('safeParse', () => {
  it('refuses what made zod throw, with classic and mini schemas alike', () => {
    const classic = z.object({ name: z.string().min(1).max(80) });
    const small = mini.z.object({ name: mini.z.string().check(mini.z.maxLength(80)) });
    expect(() => classic.safeParse({ name: hostile() })).toThrow(TypeError);
    for (const schema of [classic, small] as const) {
      const result = safeParse(schema as { safeParse(v: unknown): { success: boolean; error?: { message: string; issues: { path: PropertyKey[]; message: string }[] } } }, { name: hostile() });
      expect(result.success).toBe(false);
      expect(result.error?.message).toMatch(/cannot be checked/);
      expect(result.error?.issues[0]?.path).toEqual([]);
    }
  });

  it('gives what the schema gives for any other value', () => {
    const schema = z.object({ name: z.string().max(3) });
    expect(safeParse(schema, { name: 'abc' })).toEqual({ success: true, data: { name: 'abc' } });
    const refused = safeParse(schema, { name: 'abcd' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['name']);
  });

  it('makes each edge refuse it as bad input: a route, a hook, a client message, a message to the app', () => {
    let thrown: unknown;
    try {
      parse(z.object({ name: z.string().max(80) }), { name: hostile() }, 'body');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(400);

    const hook = parseHookPayload('Stop', { session_id: hostile(), hook_event_name: 'Stop' });
    expect(hook.ok).toBe(false);

    const frame = Buffer.from(`{"type":"status:presence","tabId":${HOSTILE_TEXT}}`);
    expect(parseClientMessage(StatusClientMessage, frame, false)).toBeNull();

    // The app's status parse drops what it cannot read and keeps the rest: no throw, and
    // nothing of the hostile value gets through.
    const message = parseServerMessage(StatusServerMessage, `{"type":"status:sync","tabs":${HOSTILE_TEXT},"approvals":[${HOSTILE_TEXT}]}`, 'status');
    expect(JSON.stringify(message) ?? '').not.toContain('valueOf');
  });

  it('is the only way the agent, the protocol and the app call a schema', () => {
    const direct: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && !path.endsWith('safe-parse.ts')) {
          for (const [i, line] of readFileSync(path, 'utf8').split('\n').entries()) {
            if (/\.safeParse\(/.test(line) && !/safeParse\(value: unknown\)/.test(line)) direct.push(`${relative(ROOT, path)}:${i + 1}`);
          }
        }
      }
    };
    for (const dir of ['agent', 'protocol', 'pwa']) walk(join(ROOT, dir));
    expect(direct).toEqual([]);
  });
});
