/**
 * What the agent receives, under hostile JSON: REST bodies and path parameters, the messages
 * clients send on its channels, and Claude Code's hook payloads. Arbitrary values and valid
 * examples changed one to three times go through the function the agent parses them with;
 * the answer is the value or the documented refusal (a 400 `HttpError`, a null, an
 * `ok: false`), and an accepted value keeps the limits its schema states.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClientMessage } from '../../agent/channels/client-message.js';
import { CODEX_HOOK_EVENT_NAMES, parseCodexHookPayload } from '../../protocol/codex-hooks.js';
import { HOOK_EVENT_NAMES, parseHookPayload } from '../../protocol/hooks.js';
import { anyJson, hostileString, type Mutation, mutate, mutatedFrom, RUNS } from './hostile.js';
import {
  checkSchemaByProperty,
  EXAMPLES,
  expectHookCommon,
  isRequestSchema,
  LIMITS,
  parseAtBoundary,
  type Schema,
  schemas,
} from './protocol-schemas.js';

describe('protocol schemas the agent receives, by property', () => {
  it('finds every schema protocol/ exports, each with a valid example its boundary accepts', () => {
    expect(schemas.size).toBeGreaterThanOrEqual(55);
    expect([...schemas.keys()].filter((name) => !(name in EXAMPLES))).toEqual([]);
    expect(Object.keys(EXAMPLES).filter((name) => !schemas.has(name))).toEqual([]);
    expect(Object.keys(LIMITS).filter((name) => !schemas.has(name))).toEqual([]);
    for (const [name, schema] of schemas) {
      const outcome = parseAtBoundary(name, schema, EXAMPLES[name]);
      expect(outcome.accepted, `${name}'s example`).toBe(true);
    }
  });

  for (const name of [...schemas.keys()].filter(isRequestSchema)) {
    it(`${name}: any JSON and mutated examples are refused as documented or accepted within limits`, () => {
      checkSchemaByProperty(name);
    });
  }

  // Found by the limit checks above: zod's `max` counts code points, so names, typed text and
  // decision texts of emoji were taken at up to twice the length the app and the docs state.
  it('bounds names, typed text and decision texts in UTF-16 units, emoji included', () => {
    const accepts = (name: string, value: unknown) => (schemas.get(name) as Schema).safeParse(value).success;
    expect(accepts('DisplayName', '😀'.repeat(40))).toBe(true);
    expect(accepts('DisplayName', '😀'.repeat(41))).toBe(false);
    expect(accepts('DisplayName', `${'a'.repeat(79)}😀`)).toBe(false);
    expect(accepts('TabInputBody', { text: '😀'.repeat(32 * 1024) })).toBe(true);
    expect(accepts('TabInputBody', { text: `${'😀'.repeat(32 * 1024)}a` })).toBe(false);
    expect(accepts('DecisionBody', { decision: 'deny', message: '😀'.repeat(1000) })).toBe(true);
    expect(accepts('DecisionBody', { decision: 'deny', message: '😀'.repeat(1001) })).toBe(false);
    expect(accepts('DecisionBody', { decision: 'answer', answers: { q: '😀'.repeat(1001) } })).toBe(false);
  });

  // Found in CI: one value in about half a million grew past what a string can hold, and the
  // suite failed on JSON.stringify rather than on anything the agent does.
  it('grows stop at 4 MiB of text, past any body the agent reads, however the copies share it', () => {
    const example = { list: [{ type: 'addRules' }] };
    const grow = (at: number, times = 300): Mutation => ({ at, op: 'grow', key: 'k', text: '', times });
    // The string to 70 K units, its object to 301 copies of it (21 M), the list to 65 of those (1.4 G).
    const grown = mutate(example, [grow(3), grow(3), grow(2), grow(1)]) as { list: Record<string, string>[] };
    expect(grown.list).toHaveLength(1);
    expect(grown.list[0]?.type).toHaveLength(70_000);
    expect(Object.keys(grown.list[0] ?? {})).toEqual(['type']);
    expect(example).toEqual({ list: [{ type: 'addRules' }] });
    // Within the bound a grow is made: 50 copies of the 70 K string are 3.5 M units.
    const within = mutate(example, [grow(3), grow(3), grow(2, 49)]) as { list: Record<string, string>[] };
    expect(Object.keys(within.list[0] ?? {})).toHaveLength(50);
  });

  it('channel messages: any bytes, text or binary, are a message of the schema or null', () => {
    const raw = fc.oneof(
      fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
      hostileString.map((s) => Buffer.from(s)),
      anyJson.map((v) => Buffer.from(JSON.stringify(v) ?? '')),
    );
    fc.assert(
      fc.property(raw, fc.boolean(), fc.constantFrom('StatusClientMessage', 'SyncClientMessage'), (data, isBinary, name) => {
        const schema = schemas.get(name) as Schema;
        const message = parseClientMessage(schema as never, data, isBinary);
        if (message === null) return;
        expect(isBinary).toBe(false);
        LIMITS[name]?.(message);
      }),
      { numRuns: RUNS },
    );
  });

  const HOOK_CLIS = [
    { cli: 'Claude', events: HOOK_EVENT_NAMES as readonly string[], table: 'HOOK_SCHEMAS', parse: parseHookPayload },
    { cli: 'Codex', events: CODEX_HOOK_EVENT_NAMES as readonly string[], table: 'CODEX_HOOK_SCHEMAS', parse: parseCodexHookPayload },
  ];
  for (const { cli, events, table, parse } of HOOK_CLIS) {
    it(`${cli} hook payloads: any event name, own keys of Object included, is parsed or refused with a reason`, () => {
      const event = fc.oneof(fc.constantFrom(...events, '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'statusline', ''), hostileString);
      const body = fc.oneof(anyJson, fc.constantFrom(...events).chain((e) => mutatedFrom(EXAMPLES[`${table}.${e}`])));
      fc.assert(
        fc.property(event, body, (name, value) => {
          const result = parse(name, value);
          if (!result.ok) {
            expect(typeof result.error).toBe('string');
            return;
          }
          expect(events).toContain(name);
          expectHookCommon(result.payload, name);
        }),
        { numRuns: RUNS },
      );
    });
  }
});
