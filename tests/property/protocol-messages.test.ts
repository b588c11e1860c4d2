/**
 * What the agent sends, under hostile JSON, as the PWA and the CLI read it: status, sync and
 * timeline messages, approvals, push payloads, pane history. Arbitrary values and valid
 * examples changed one to three times go through the client's parse function; the answer is
 * the message or null (ignored and counted), never a throw, and a sync or a page keeps only
 * the parts that parse on their own.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { parseServerMessage } from '../../pwa/core/server-message.js';
import { anyJson, hostileString, RUNS } from './hostile.js';
import { checkSchemaByProperty, expectStable, isRequestSchema, LIMITS, SERVER_MESSAGES, type Schema, schemas } from './protocol-schemas.js';

let warn: ReturnType<typeof vi.spyOn>;
beforeAll(() => {
  // The PWA's parser logs the first message of each channel it refuses; that is all the noise.
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterAll(() => warn.mockRestore());

describe('protocol schemas the agent sends, by property', () => {
  for (const name of [...schemas.keys()].filter((n) => !isRequestSchema(n))) {
    it(`${name}: any JSON and mutated examples are refused or accepted within limits`, () => {
      checkSchemaByProperty(name);
    });
  }

  it('server messages: any data, text or not, is a message of the schema or null', () => {
    const data = fc.oneof(hostileString, anyJson.map((v) => JSON.stringify(v)), fc.constantFrom(undefined, null, 7, new ArrayBuffer(3)));
    fc.assert(
      fc.property(data, fc.constantFrom(...SERVER_MESSAGES), (value, name) => {
        const schema = schemas.get(name) as Schema;
        const message = parseServerMessage(schema as never, value, `property-raw-${name}`);
        if (message === null) return;
        LIMITS[name]?.(message);
        expectStable(schema, message);
      }),
      { numRuns: RUNS },
    );
  });
});
