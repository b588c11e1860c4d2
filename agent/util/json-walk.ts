/**
 * Parsed JSON walked with a stack of its own, never by recursion. `JSON.parse` takes any
 * depth, but `JSON.stringify` and every recursive walk overflow the call stack on a value
 * nested some thousands deep, and a hook body of 2 MB can nest a million deep. Memory grows
 * with the depth only, never with the width.
 */

type Container = unknown[] | Record<string, unknown>;

interface Frame {
  container: Container;
  /** An object's own keys, in order; null for an array. */
  keys: string[] | null;
  next: number;
}

export interface JsonVisitor {
  /** A string, number, boolean or null (anything else JSON has no form for). */
  scalar(value: unknown): void;
  /** An array or object begins, `depth` deep (the top level is 1). */
  open(kind: 'array' | 'object', depth: number): void;
  close(kind: 'array' | 'object'): void;
  /** The next item of the innermost array or object: `key` for an object, null for an array. */
  item(key: string | null, first: boolean): void;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

/** Calls `visitor` for each part of `value`, in the order its JSON text has them. */
export function walkJson(value: unknown, visitor: JsonVisitor): void {
  const frames: Frame[] = [];
  let current = value;
  for (;;) {
    if (isContainer(current)) {
      const keys = Array.isArray(current) ? null : Object.keys(current);
      visitor.open(keys === null ? 'array' : 'object', frames.length + 1);
      frames.push({ container: current, keys, next: 0 });
    } else visitor.scalar(current);
    for (;;) {
      const top = frames.at(-1);
      if (top === undefined) return;
      const length = top.keys === null ? (top.container as unknown[]).length : top.keys.length;
      if (top.next === length) {
        frames.pop();
        visitor.close(top.keys === null ? 'array' : 'object');
        continue;
      }
      const i = top.next++;
      const key = top.keys === null ? null : (top.keys[i] as string);
      visitor.item(key, i === 0);
      current = key === null ? (top.container as unknown[])[i] : (top.container as Record<string, unknown>)[key];
      break;
    }
  }
}

/** How deeply `value` nests arrays and objects (a scalar is 0, `[]` is 1). */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  walkJson(value, {
    scalar() {},
    open(_kind, depth) {
      if (depth > deepest) deepest = depth;
    },
    close() {},
    item() {},
  });
  return deepest;
}

/**
 * The JSON text of a parsed JSON value, handed out in pieces: what `JSON.stringify` writes for
 * it, at any depth. A value JSON has no form for is written `null`.
 */
export function writeJson(value: unknown, write: (piece: string) => void): void {
  walkJson(value, {
    scalar(v) {
      write(typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) ? JSON.stringify(v) : 'null');
    },
    open(kind) {
      write(kind === 'array' ? '[' : '{');
    },
    close(kind) {
      write(kind === 'array' ? ']' : '}');
    },
    item(key, first) {
      if (!first) write(',');
      if (key !== null) write(`${JSON.stringify(key)}:`);
    },
  });
}
