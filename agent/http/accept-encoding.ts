/**
 * Which content coding a client accepts, read from its `Accept-Encoding` header as RFC 9110
 * (section 12.5.3) has it: each coding with an optional weight `q` from 0 to 1, `q=0` meaning
 * "not this one", `*` standing for every coding not named, and identity acceptable unless
 * refused by name or by `*;q=0`.
 */

/** The codings the agent can send: a file as it is, or its precompressed copy. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

/** On equal weight, the smaller copy first. */
const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'identity'];

/**
 * Identity not named (nor `*`) is acceptable, but only as the last resort: `gzip;q=0.5`
 * means "gzip, please", not "rather the whole file". The lowest weight there is.
 */
const UNNAMED_IDENTITY_Q = 0.001;

/** A token as RFC 9110 defines it: no spaces, quotes, separators or control characters. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
/** A weight: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Each named coding with its weight; entries that do not parse are left out, as if not sent. */
function weights(header: string): Map<string, number> {
  const byCoding = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [rawCoding, ...params] = entry.split(';');
    let coding = (rawCoding ?? '').trim().toLowerCase();
    if (coding === '') continue;
    if (!TOKEN.test(coding)) continue;
    // RFC 9110: a recipient should treat x-gzip as gzip.
    if (coding === 'x-gzip') coding = 'gzip';
    let q = 1;
    let valid = true;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim());
      if (name?.toLowerCase() !== 'q') continue;
      if (value === undefined || !QVALUE.test(value)) valid = false;
      else q = Number(value);
    }
    // The first mention of a coding counts; a later one does not override it.
    if (valid && !byCoding.has(coding)) byCoding.set(coding, q);
  }
  return byCoding;
}

/**
 * The codings this client accepts, the one to try first first: by weight, then smaller before
 * larger. Empty when it refuses all three. Without the header a client gets the file as it
 * is: RFC 9110 would allow any coding then, but a client that sends nothing may decode nothing.
 */
export function acceptedEncodings(header: string | undefined): ContentCoding[] {
  if (header === undefined) return ['identity'];
  const byCoding = weights(header);
  const wildcard = byCoding.get('*');
  const weightOf = (coding: ContentCoding): number => {
    const named = byCoding.get(coding);
    if (named !== undefined) return named;
    if (wildcard !== undefined) return wildcard;
    return coding === 'identity' ? UNNAMED_IDENTITY_Q : 0;
  };
  return PREFERENCE.map((coding, rank) => ({ coding, rank, q: weightOf(coding) }))
    .filter((c) => c.q > 0)
    .sort((a, b) => b.q - a.q || a.rank - b.rank)
    .map((c) => c.coding);
}
