/**
 * The terminal frame codec under hostile bytes: whatever a socket delivers, `decodeFrame`
 * answers with a frame or a typed error and never throws (the bridge closes that socket with
 * 4000 on an error), and what it accepts is exactly what `encodeFrame` would have written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DecodeResult,
  decodeFrame,
  encodeFrame,
  type FrameErrorCode,
  FrameType,
  isClientFrame,
  MAX_TERMINAL_DIMENSION,
  type TerminalFrame,
} from '../../protocol/terminal-frame.js';

const RUNS = 10_000;
const ERROR_CODES: readonly FrameErrorCode[] = ['empty', 'unknown-type', 'bad-length', 'bad-size', 'bad-utf8'];
const TYPES: readonly number[] = Object.values(FrameType);

/**
 * Bytes as a socket hands them over: ws gives the agent Node Buffers that may view a larger
 * pooled buffer at an offset, the PWA a fresh ArrayBuffer. A decoder that reads the backing
 * buffer instead of the view would see the neighbours' bytes.
 */
const placed = (bytes: Uint8Array, before: Uint8Array, after: Uint8Array): Uint8Array => {
  const backing = new Uint8Array(before.length + bytes.length + after.length);
  backing.set(before, 0);
  backing.set(bytes, before.length);
  backing.set(after, before.length + bytes.length);
  return backing.subarray(before.length, before.length + bytes.length);
};

/** A frame's first byte: mostly the known types, so payload checks are reached, sometimes any. */
const typeByte = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...TYPES) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) });

const rawFrame = fc
  .tuple(typeByte, fc.oneof(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 300 })))
  .map(([type, payload]) => Uint8Array.of(type, ...payload));

/** Any bytes at all, including none, in an arbitrary place of a larger buffer. */
const hostileBytes = fc
  .tuple(fc.oneof(rawFrame, fc.uint8Array({ maxLength: 64 })), fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ maxLength: 16 }))
  .map(([bytes, before, after]) => placed(bytes, before, after));

const dimension = fc.integer({ min: 1, max: MAX_TERMINAL_DIMENSION });

/** Text as a browser sends it, lone surrogates aside (the TextEncoder replaces those). */
const webText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: fc.constantFrom('\ufeff', '\u0000', '\u001b', '\u202e', 'é', '😀', '\r', '\n'), maxLength: 20 }),
);

const validFrame: fc.Arbitrary<TerminalFrame> = fc.oneof(
  fc.uint8Array({ maxLength: 300 }).map((data) => ({ type: FrameType.Stdin, data })),
  fc.uint8Array({ maxLength: 300 }).map((data) => ({ type: FrameType.Stdout, data })),
  fc.tuple(dimension, dimension).map(([cols, rows]) => ({ type: FrameType.Resize, cols, rows })),
  fc.constant({ type: FrameType.Heartbeat }),
  fc.constant({ type: FrameType.Kill }),
  webText.map((text) => ({ type: FrameType.WebStdin, text })),
);

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'extend'; extra: Uint8Array }
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'set'; at: number; value: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.nat().map((at) => ({ kind: 'truncate' as const, at })),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((extra) => ({ kind: 'extend' as const, extra })),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, mask]) => ({ kind: 'flip' as const, at, mask })),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, value]) => ({ kind: 'set' as const, at, value })),
);

function mutate(bytes: Uint8Array, m: Mutation): Uint8Array {
  const out = Uint8Array.from(bytes);
  switch (m.kind) {
    case 'truncate':
      return out.subarray(0, m.at % (out.length + 1));
    case 'extend':
      return Uint8Array.of(...out, ...m.extra);
    case 'flip':
      if (out.length > 0) out[m.at % out.length] = (out[m.at % out.length] as number) ^ m.mask;
      return out;
    case 'set':
      if (out.length > 0) out[m.at % out.length] = m.value;
      return out;
  }
}

/**
 * What every answer of the decoder must be: a typed error with a known code, or a frame that
 * is in range and that `encodeFrame` writes back byte for byte (so nothing was read from
 * outside the view, and nothing accepted is something the agent's own encoder refuses).
 */
function checkDecoded(bytes: Uint8Array, result: DecodeResult): void {
  if (!result.ok) {
    expect(ERROR_CODES).toContain(result.error.code);
    expect(typeof result.error.message).toBe('string');
    return;
  }
  const frame = result.frame;
  expect(frame.type).toBe(bytes[0]);
  if (frame.type === FrameType.Resize) {
    expect(frame.cols).toBeGreaterThanOrEqual(1);
    expect(frame.rows).toBeGreaterThanOrEqual(1);
    expect(frame.cols).toBeLessThanOrEqual(MAX_TERMINAL_DIMENSION);
    expect(frame.rows).toBeLessThanOrEqual(MAX_TERMINAL_DIMENSION);
  }
  expect(Array.from(encodeFrame(frame))).toEqual(Array.from(bytes));
  expect(typeof isClientFrame(frame)).toBe('boolean');
}

function sameFrame(a: TerminalFrame, b: TerminalFrame): void {
  if ((a.type === FrameType.Stdin || a.type === FrameType.Stdout) && b.type === a.type) {
    expect(Array.from(b.data)).toEqual(Array.from(a.data));
    return;
  }
  expect(b).toEqual(a);
}

describe('terminal frame decoder, by property', () => {
  it('answers any bytes, wherever they sit in their buffer, with a frame that re-encodes to them or a typed error', () => {
    fc.assert(
      fc.property(hostileBytes, (bytes) => {
        checkDecoded(bytes, decodeFrame(bytes));
      }),
      { numRuns: RUNS },
    );
  });

  it('round-trips every valid frame through encode and decode', () => {
    fc.assert(
      fc.property(validFrame, fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ maxLength: 16 }), (frame, before, after) => {
        const decoded = decodeFrame(placed(encodeFrame(frame), before, after));
        if (!decoded.ok) throw new Error(`a valid frame was refused: ${decoded.error.message}`);
        sameFrame(frame, decoded.frame);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers valid frames truncated, extended and flipped with a frame that re-encodes to them or a typed error', () => {
    fc.assert(
      fc.property(validFrame, fc.array(mutation, { minLength: 1, maxLength: 3 }), (frame, mutations) => {
        const bytes = mutations.reduce(mutate, encodeFrame(frame));
        checkDecoded(bytes, decodeFrame(bytes));
      }),
      { numRuns: RUNS },
    );
  });

  it('encodes a resize only within range, refusing anything else with a RangeError', () => {
    const anyNumber = fc.oneof(
      fc.integer({ min: -5, max: MAX_TERMINAL_DIMENSION + 5 }),
      fc.double(),
      fc.constantFrom(0, -0, 0.5, MAX_TERMINAL_DIMENSION + 0.5, 65_536, Number.NaN, Number.POSITIVE_INFINITY),
    );
    fc.assert(
      fc.property(anyNumber, anyNumber, (cols, rows) => {
        const inRange = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_TERMINAL_DIMENSION;
        const encode = () => encodeFrame({ type: FrameType.Resize, cols, rows });
        if (inRange(cols) && inRange(rows)) checkDecoded(encode(), decodeFrame(encode()));
        else expect(encode).toThrow(RangeError);
      }),
      { numRuns: RUNS },
    );
  });

  // Found by the round-trip property: a fatal TextDecoder still drops a leading byte order
  // mark unless told not to, so text starting with U+FEFF lost that character on the way.
  it('keeps a leading U+FEFF in web stdin text', () => {
    const decoded = decodeFrame(encodeFrame({ type: FrameType.WebStdin, text: '\ufeffA' }));
    expect(decoded).toEqual({ ok: true, frame: { type: FrameType.WebStdin, text: '\ufeffA' } });
  });
});
