/**
 * The binary frame protocol of `/api/terminal`: one type byte, then the payload.
 * Pure: no I/O, no Node or DOM types, so agent and PWA share it byte for byte.
 */

export const FrameType = {
  Stdin: 0x00,
  Stdout: 0x01,
  Resize: 0x02,
  Heartbeat: 0x03,
  Kill: 0x04,
  WebStdin: 0x05,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

/** Largest terminal dimension accepted in a resize frame (tmux's own limit is 10000). */
export const MAX_TERMINAL_DIMENSION = 10_000;

/**
 * The largest terminal tmux is given, in cells. tmux keeps a cell for every column of every
 * row it draws: a window of 10,000 × 10,000 cleared three times with a background colour took
 * its server from 4 MB to 490 MB. A million cells is about an 8K screen with a 4 × 8 pixel
 * font; at 2,000 × 500 the same clears cost tmux 9 MB.
 */
export const MAX_TERMINAL_CELLS = 1_000_000;

/**
 * The widest and tallest terminal tmux is given. Each line of a pane's history is as wide as
 * the lines it kept: 50,000 lines of 2,000 coloured columns hold 500 MB in tmux.
 */
export const MAX_TERMINAL_COLUMNS = 2_000;
export const MAX_TERMINAL_ROWS = 1_000;

/**
 * The size a terminal asked for, made to fit the bounds above: each side at most its bound,
 * then rows cut until the cells fit (the width is kept, so lines wrap where the browser
 * wraps them). A browser that asks for more gets the top of a smaller terminal, not a
 * closed socket.
 */
export function fitTerminalSize(cols: number, rows: number): { cols: number; rows: number } {
  const fitCols = Math.max(1, Math.min(Math.floor(cols), MAX_TERMINAL_COLUMNS));
  const fitRows = Math.max(1, Math.min(Math.floor(rows), MAX_TERMINAL_ROWS, Math.floor(MAX_TERMINAL_CELLS / fitCols)));
  return { cols: fitCols, rows: fitRows };
}

export type TerminalFrame =
  | { type: typeof FrameType.Stdin; data: Uint8Array }
  | { type: typeof FrameType.Stdout; data: Uint8Array }
  | { type: typeof FrameType.Resize; cols: number; rows: number }
  | { type: typeof FrameType.Heartbeat }
  | { type: typeof FrameType.Kill }
  | { type: typeof FrameType.WebStdin; text: string };

export type FrameErrorCode =
  | 'empty'
  | 'unknown-type'
  | 'bad-length'
  | 'bad-size'
  | 'bad-utf8';

export interface FrameError {
  code: FrameErrorCode;
  message: string;
}

export type DecodeResult = { ok: true; frame: TerminalFrame } | { ok: false; error: FrameError };

const utf8Encoder = new TextEncoder();
// ignoreBOM: a fatal decoder still drops a leading U+FEFF as a byte order mark, and text
// typed or pasted starting with one would lose it.
const utf8Decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function fail(code: FrameErrorCode, message: string): DecodeResult {
  return { ok: false, error: { code, message } };
}

function withType(type: FrameType, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + payload.length);
  out[0] = type;
  out.set(payload, 1);
  return out;
}

export function encodeFrame(frame: TerminalFrame): Uint8Array {
  switch (frame.type) {
    case FrameType.Stdin:
    case FrameType.Stdout:
      return withType(frame.type, frame.data);
    case FrameType.Resize: {
      assertDimension(frame.cols, 'cols');
      assertDimension(frame.rows, 'rows');
      const out = new Uint8Array(5);
      out[0] = FrameType.Resize;
      new DataView(out.buffer).setUint16(1, frame.cols, false);
      new DataView(out.buffer).setUint16(3, frame.rows, false);
      return out;
    }
    case FrameType.Heartbeat:
    case FrameType.Kill:
      return Uint8Array.of(frame.type);
    case FrameType.WebStdin:
      return withType(FrameType.WebStdin, utf8Encoder.encode(frame.text));
  }
}

function assertDimension(value: number, name: string): void {
  if (!Number.isInteger(value) || value < 1 || value > MAX_TERMINAL_DIMENSION) {
    throw new RangeError(`${name} must be an integer in 1..${MAX_TERMINAL_DIMENSION}, got ${value}`);
  }
}

/**
 * Decodes one frame. Never throws: a short, empty, unknown or malformed frame comes back
 * as a typed error for the caller to act on (the bridge closes that one socket).
 * The returned `data` views the input buffer without copying.
 */
export function decodeFrame(bytes: Uint8Array): DecodeResult {
  if (bytes.length === 0) return fail('empty', 'empty frame');
  const type = bytes[0];
  const payload = bytes.subarray(1);
  switch (type) {
    case FrameType.Stdin:
    case FrameType.Stdout:
      return { ok: true, frame: { type, data: payload } };
    case FrameType.Resize: {
      if (payload.length !== 4) {
        return fail('bad-length', `resize frame needs 4 payload bytes, got ${payload.length}`);
      }
      const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
      const cols = view.getUint16(0, false);
      const rows = view.getUint16(2, false);
      if (cols < 1 || rows < 1 || cols > MAX_TERMINAL_DIMENSION || rows > MAX_TERMINAL_DIMENSION) {
        return fail('bad-size', `resize to ${cols}x${rows} is out of range`);
      }
      return { ok: true, frame: { type, cols, rows } };
    }
    case FrameType.Heartbeat:
    case FrameType.Kill:
      if (payload.length !== 0) {
        return fail('bad-length', `frame type ${type} carries no payload, got ${payload.length} bytes`);
      }
      return { ok: true, frame: { type } };
    case FrameType.WebStdin:
      try {
        return { ok: true, frame: { type, text: utf8Decoder.decode(payload) } };
      } catch {
        return fail('bad-utf8', 'web stdin frame is not valid UTF-8');
      }
    default:
      return fail('unknown-type', `unknown frame type 0x${(type ?? 0).toString(16).padStart(2, '0')}`);
  }
}

/** Frames a client may send; the rest are server-to-client only. */
export function isClientFrame(frame: TerminalFrame): boolean {
  return frame.type !== FrameType.Stdout;
}
