/**
 * Arbitraries shared by the property suites: text and JSON as someone hostile would write it.
 */
import fc from 'fast-check';

/** How many cases each property runs: issue 15 asks for at least this many. */
export const RUNS = 10_000;

/**
 * Characters that act on terminals, reorder text, end lines, split tmux commands or sit at
 * a boundary of UTF-16: C0 and C1 controls, DEL, bidi controls, separators, a BOM, lone
 * surrogates, and the characters tmux and paths treat specially.
 */
export const HOSTILE_CHARS = [
  '\u0000',
  '\u0007',
  '\t',
  '\n',
  '\r',
  '\u000b',
  '\u001b',
  '\u001e',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u061c',
  '\u200e',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\u00a0',
  '\ud800',
  '\udfff',
  ' ',
  '#',
  ';',
  '%',
  '-',
  '/',
  '=',
  '.',
  '❯',
  'é',
  '界',
  '😀',
] as const;

export const hostileChar = fc.constantFrom(...HOSTILE_CHARS);

/** Lengths on either side of the limits the protocol states (names, ids, paths, texts). */
export const LIMIT_LENGTHS = [0, 1, 7, 8, 15, 16, 24, 25, 32, 33, 63, 64, 65, 79, 80, 81, 100, 101, 199, 200, 201, 256, 257, 1999, 2000, 2001, 2048, 2049, 4095, 4096, 4097, 16_000, 16_001, 65_536, 65_537];

/** A string of about `n` characters, built of one filler, with hostile characters at its ends. */
export const stringNearLimit = fc
  .tuple(
    fc.constantFrom(...LIMIT_LENGTHS),
    fc.constantFrom('a', '0', '-', ' ', 'é', '😀', '\u0000', '\t'),
    fc.string({ unit: hostileChar, maxLength: 2 }),
    fc.string({ unit: hostileChar, maxLength: 2 }),
  )
  .map(([n, filler, before, after]) => `${before}${filler.repeat(Math.ceil(n / filler.length))}${after}`);

/** Short strings mostly: a string near a limit costs every check that reads it, so it comes less often. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: hostileChar, maxLength: 24 }) },
  { weight: 3, arbitrary: fc.string({ unit: fc.oneof(hostileChar, fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 })), maxLength: 40 }) },
  { weight: 1, arbitrary: stringNearLimit },
);

/** Keys that mean something to JavaScript objects. */
export const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'type', ''),
  fc.string({ maxLength: 12 }),
  hostileString,
);

/** Numbers at the edges: negative, fractional, huge, and the bounds of percentages. */
export const edgeNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 1, 99.999, 100, 100.0001, 101, -0.0001, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/**
 * Objects a length check takes for strings or arrays: a `length` that is no number, or one
 * that no number comes of (own `toString` and `valueOf` that are not functions, as JSON can
 * write them), which made zod throw rather than fail. Parsed from JSON, as input arrives.
 */
export const lengthLike = fc
  .constantFrom('{"toString":1,"valueOf":1}', '[{"toString":1,"valueOf":1}]', '"9"', '1e400', '-1', '{}', '[]', 'null')
  .map((length) => JSON.parse(`{"length":${length}}`) as unknown);

/** Any JSON value (what `JSON.parse` can hand a schema), shallow enough to stay fast. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  lengthLike,
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      edgeNumber,
      hostileString,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileKey, tie('value'), { maxKeys: 4 }),
    ),
  })).value,
);

const MAX_GROWN_UNITS = 70_000;
const MAX_GROWN_ITEMS = 400;
const MAX_GROWN_NODES = 20_000;
/**
 * Text over the whole tree, counted at every place a shared subtree appears, as its JSON
 * writes it: twice the largest body any boundary reads (a hook's 2 MiB). Without it, a string
 * grown to 70 K units and then copied into thousands of places made a value whose JSON is
 * longer than a JavaScript string can be, which no request can carry.
 */
const MAX_GROWN_TEXT = 4 * 1024 * 1024;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** One change made to a valid example, at the `at`-th place of its tree (any node, root included). */
export type Mutation = { at: number } & (
  | { op: 'replace'; json: unknown }
  | { op: 'string'; text: string }
  | { op: 'number'; number: number }
  | { op: 'delete' | 'null' }
  | { op: 'wrap'; key: string; inArray: boolean }
  | { op: 'add-key'; key: string; json: unknown }
  | { op: 'grow'; key: string; text: string; times: number }
);

const times = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom(100, 101, 300));

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), op: fc.constant('replace' as const), json: anyJson }),
  fc.record({ at: fc.nat(), op: fc.constant('string' as const), text: hostileString }),
  fc.record({ at: fc.nat(), op: fc.constant('number' as const), number: edgeNumber }),
  fc.record({ at: fc.nat(), op: fc.constantFrom('delete' as const, 'null' as const) }),
  fc.record({ at: fc.nat(), op: fc.constant('wrap' as const), key: hostileKey, inArray: fc.boolean() }),
  fc.record({ at: fc.nat(), op: fc.constant('add-key' as const), key: hostileKey, json: anyJson }),
  fc.record({ at: fc.nat(), op: fc.constant('grow' as const), key: hostileKey, text: fc.string({ unit: hostileChar, maxLength: 3 }), times }),
);

function paths(value: Json, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) paths(v, [...prefix, i], out);
  } else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}

/** The units of every string and key of the tree, shared subtrees at each place; stops past `max`. */
function textUnits(value: Json, max: number): number {
  let total = 0;
  const walk = (node: Json): void => {
    if (total > max) return;
    if (typeof node === 'string') total += node.length;
    else if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === 'object') {
      for (const [key, item] of Object.entries(node)) {
        total += key.length;
        walk(item);
      }
    }
  };
  walk(value);
  return total;
}

function get(root: Json, path: Path): Json {
  let node = root;
  for (const step of path) node = (node as Record<string | number, Json>)[step] as Json;
  return node;
}

/** Sets with `defineProperty`, as `JSON.parse` does: a `__proto__` key is a key, not a prototype. */
function setOwn(target: object, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `example` with the mutations applied in turn; the example itself is left as it was. */
export function mutate(example: unknown, mutations: readonly Mutation[]): unknown {
  const box: { root: Json } = { root: structuredClone(example) as Json };
  for (const m of mutations) {
    const all = paths(box.root);
    const path = all[m.at % all.length] as Path;
    const value = get(box.root, path);
    const parent = path.length === 0 ? (box as unknown as Record<string, Json>) : get(box.root, path.slice(0, -1));
    const key = path.length === 0 ? 'root' : (path[path.length - 1] as string | number);
    const put = (next: unknown) => setOwn(parent as object, key, next);
    switch (m.op) {
      case 'replace':
        put(m.json);
        break;
      case 'string':
        put(m.text);
        break;
      case 'number':
        put(m.number);
        break;
      case 'null':
        put(null);
        break;
      case 'wrap':
        put(m.inArray ? [value] : Object.defineProperty({}, m.key, { value, enumerable: true, writable: true, configurable: true }));
        break;
      case 'delete':
        if (path.length === 0) break;
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete (parent as Record<string, Json>)[key];
        break;
      case 'add-key':
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) setOwn(value, m.key, m.json);
        else if (Array.isArray(value)) value.push(m.json as Json);
        break;
      case 'grow': {
        // A grow that takes the tree's text past MAX_GROWN_TEXT is not made: the tree as it was comes back.
        const before = structuredClone(box.root);
        // Copies share their subtree, so each grow multiplies the paths of the tree: bounded by
        // the tree's size, or three grows in a row could make millions of them.
        const times = Math.min(m.times, Math.floor(MAX_GROWN_NODES / all.length));
        // Past the largest limit (64 K units), and no further: a bigger value proves nothing more.
        if (typeof value === 'string') put((value.repeat(Math.max(1, times)) + m.text).slice(0, MAX_GROWN_UNITS));
        else if (Array.isArray(value) && value.length > 0) {
          put(Array.from({ length: Math.min(value.length * times, MAX_GROWN_ITEMS) }, (_, i) => value[i % value.length]));
        } else if (value !== null && typeof value === 'object') {
          const first = Object.values(value)[0] ?? null;
          for (let i = 0; i < times; i++) setOwn(value, `${m.key}${i}`, first);
        }
        if (textUnits(box.root, MAX_GROWN_TEXT) > MAX_GROWN_TEXT) box.root = before;
        break;
      }
    }
  }
  return box.root;
}

/** A valid example changed one to three times. */
export const mutatedFrom = (example: unknown): fc.Arbitrary<unknown> =>
  fc.array(mutation, { minLength: 1, maxLength: 3 }).map((mutations) => mutate(example, mutations));
