import { describe, expect, it } from 'vitest';
import {
  decodeFrame,
  encodeFrame,
  FrameType,
  fitTerminalSize,
  isClientFrame,
  MAX_TERMINAL_CELLS,
  MAX_TERMINAL_COLUMNS,
  MAX_TERMINAL_DIMENSION,
  MAX_TERMINAL_ROWS,
  type TerminalFrame,
} from '../../../protocol/terminal-frame.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

function roundTrip(frame: TerminalFrame): TerminalFrame {
  const decoded = decodeFrame(encodeFrame(frame));
  if (!decoded.ok) throw new Error(decoded.error.message);
  return decoded.frame;
}

describe('terminal frame codec', () => {
  it('round-trips stdin and stdout bytes unchanged, including invalid UTF-8 and NULs', () => {
    const data = bytes(0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x41, 0xe2, 0x82);
    const stdin = roundTrip({ type: FrameType.Stdin, data });
    expect(stdin.type).toBe(FrameType.Stdin);
    expect(Array.from((stdin as { data: Uint8Array }).data)).toEqual(Array.from(data));
    const stdout = roundTrip({ type: FrameType.Stdout, data });
    expect(Array.from((stdout as { data: Uint8Array }).data)).toEqual(Array.from(data));
  });

  it('round-trips an empty stdin payload', () => {
    expect(roundTrip({ type: FrameType.Stdin, data: new Uint8Array(0) })).toMatchObject({ type: FrameType.Stdin });
  });

  it('encodes resize as big-endian u16 cols then rows', () => {
    expect(Array.from(encodeFrame({ type: FrameType.Resize, cols: 300, rows: 2 }))).toEqual([0x02, 0x01, 0x2c, 0x00, 0x02]);
    expect(roundTrip({ type: FrameType.Resize, cols: 132, rows: 43 })).toEqual({ type: FrameType.Resize, cols: 132, rows: 43 });
    expect(roundTrip({ type: FrameType.Resize, cols: MAX_TERMINAL_DIMENSION, rows: 1 })).toEqual({
      type: FrameType.Resize,
      cols: MAX_TERMINAL_DIMENSION,
      rows: 1,
    });
  });

  it('encodes heartbeat and kill as a lone type byte', () => {
    expect(Array.from(encodeFrame({ type: FrameType.Heartbeat }))).toEqual([0x03]);
    expect(Array.from(encodeFrame({ type: FrameType.Kill }))).toEqual([0x04]);
    expect(roundTrip({ type: FrameType.Heartbeat })).toEqual({ type: FrameType.Heartbeat });
    expect(roundTrip({ type: FrameType.Kill })).toEqual({ type: FrameType.Kill });
  });

  it('round-trips web stdin text as UTF-8', () => {
    const text = 'ls -la ~/проект 🚀\n';
    const encoded = encodeFrame({ type: FrameType.WebStdin, text });
    expect(encoded[0]).toBe(0x05);
    expect(roundTrip({ type: FrameType.WebStdin, text })).toEqual({ type: FrameType.WebStdin, text });
  });

  it('refuses to encode a resize out of range', () => {
    expect(() => encodeFrame({ type: FrameType.Resize, cols: 0, rows: 24 })).toThrow(RangeError);
    expect(() => encodeFrame({ type: FrameType.Resize, cols: 80, rows: MAX_TERMINAL_DIMENSION + 1 })).toThrow(RangeError);
    expect(() => encodeFrame({ type: FrameType.Resize, cols: 80.5, rows: 24 })).toThrow(RangeError);
  });

  it('decodes a frame that views a larger buffer at an offset', () => {
    const backing = bytes(9, 9, 0x02, 0x00, 0x50, 0x00, 0x18, 9);
    expect(decodeFrame(backing.subarray(2, 7))).toEqual({ ok: true, frame: { type: FrameType.Resize, cols: 80, rows: 24 } });
  });

  describe('malformed frames come back as typed errors, never as throws', () => {
    const cases: [string, Uint8Array, string][] = [
      ['empty', bytes(), 'empty'],
      ['unknown type 0x06', bytes(0x06), 'unknown-type'],
      ['unknown type 0xff with payload', bytes(0xff, 1, 2), 'unknown-type'],
      ['resize with no payload', bytes(0x02), 'bad-length'],
      ['resize one byte short', bytes(0x02, 0, 80, 0), 'bad-length'],
      ['resize one byte long', bytes(0x02, 0, 80, 0, 24, 0), 'bad-length'],
      ['resize to zero columns', bytes(0x02, 0, 0, 0, 24), 'bad-size'],
      ['resize to zero rows', bytes(0x02, 0, 80, 0, 0), 'bad-size'],
      ['resize beyond the limit', bytes(0x02, 0xff, 0xff, 0, 24), 'bad-size'],
      ['heartbeat with a payload', bytes(0x03, 1), 'bad-length'],
      ['kill with a payload', bytes(0x04, 0, 0), 'bad-length'],
      ['web stdin that is not UTF-8', bytes(0x05, 0xc3, 0x28), 'bad-utf8'],
      ['web stdin cut mid-character', bytes(0x05, 0xe2, 0x82), 'bad-utf8'],
    ];
    for (const [name, input, code] of cases) {
      it(name, () => {
        const result = decodeFrame(input);
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.error.code).toBe(code);
          expect(result.error.message.length).toBeGreaterThan(0);
        }
      });
    }
  });

  it('knows which frames a client may send', () => {
    expect(isClientFrame({ type: FrameType.Stdout, data: bytes() })).toBe(false);
    expect(isClientFrame({ type: FrameType.Stdin, data: bytes() })).toBe(true);
    expect(isClientFrame({ type: FrameType.Kill })).toBe(true);
  });

  it('never throws on random input', () => {
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let i = 0; i < 5000; i++) {
      const input = Uint8Array.from({ length: rand() % 8 }, () => rand() % 256);
      const result = decodeFrame(input);
      expect(typeof result.ok).toBe('boolean');
    }
  });
});

describe('fitTerminalSize', () => {
  it('keeps a size within the bounds as it is', () => {
    expect(fitTerminalSize(80, 24)).toEqual({ cols: 80, rows: 24 });
    expect(fitTerminalSize(1, 1)).toEqual({ cols: 1, rows: 1 });
    expect(fitTerminalSize(MAX_TERMINAL_COLUMNS, MAX_TERMINAL_CELLS / MAX_TERMINAL_COLUMNS)).toEqual({ cols: MAX_TERMINAL_COLUMNS, rows: MAX_TERMINAL_CELLS / MAX_TERMINAL_COLUMNS });
  });

  it('cuts each side to its bound, then the rows until the cells fit, keeping the width', () => {
    expect(fitTerminalSize(MAX_TERMINAL_DIMENSION, MAX_TERMINAL_DIMENSION)).toEqual({ cols: MAX_TERMINAL_COLUMNS, rows: MAX_TERMINAL_CELLS / MAX_TERMINAL_COLUMNS });
    expect(fitTerminalSize(100, MAX_TERMINAL_DIMENSION)).toEqual({ cols: 100, rows: MAX_TERMINAL_ROWS });
    expect(fitTerminalSize(1920, 540)).toEqual({ cols: 1920, rows: 520 });
    expect(fitTerminalSize(MAX_TERMINAL_DIMENSION, 3)).toEqual({ cols: MAX_TERMINAL_COLUMNS, rows: 3 });
  });

  it('never gives more cells than the bound, nor a side below 1', () => {
    for (const cols of [1, 7, 999, 1000, 1001, 1999, 2000, 2001, 10_000, 65_535]) {
      for (const rows of [1, 3, 499, 500, 501, 999, 1000, 1001, 10_000, 65_535]) {
        const fit = fitTerminalSize(cols, rows);
        expect(fit.cols * fit.rows).toBeLessThanOrEqual(MAX_TERMINAL_CELLS);
        expect(fit.cols).toBeGreaterThanOrEqual(1);
        expect(fit.rows).toBeGreaterThanOrEqual(1);
        expect(fit.cols).toBe(Math.min(cols, MAX_TERMINAL_COLUMNS));
      }
    }
    expect(fitTerminalSize(0, 0)).toEqual({ cols: 1, rows: 1 });
  });
});
