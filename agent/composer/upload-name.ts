/**
 * An uploaded file's name, pure: read from its header, made safe to be a file name in the
 * session's directory and to be read in a prompt, and made unique with a time stamp.
 */

export const UPLOAD_NAME_LIMITS = {
  /** Characters of the name kept (before the time stamp). */
  chars: 120,
  /** Its UTF-8 bytes: with the stamp and a counter it stays under a file name's 255. */
  bytes: 200,
  /** Characters of the header read at all. */
  header: 2048,
} as const;

export const UPLOAD_FALLBACK_NAME = 'upload.bin';

/**
 * What a file name must not hold: C0 and C1 controls, DEL, line and paragraph separators,
 * bidirectional formatting characters (protocol/safe-text.ts), and the BOM and zero-width
 * no-break space.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** A longest extension kept whole when the name is shortened (`.tar.gz` counts as `.gz`). */
const MAX_EXTENSION = 16;

function splitExtension(name: string): { stem: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.length - dot > MAX_EXTENSION) return { stem: name, ext: '' };
  return { stem: name.slice(0, dot), ext: name.slice(dot) };
}

/** The first characters of `text` that fit both bounds, never splitting a character. */
function fitWithin(text: string, chars: number, bytes: number): string {
  let out = '';
  let count = 0;
  let used = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (count + 1 > chars || used + size > bytes) break;
    out += ch;
    count++;
    used += size;
  }
  return out;
}

/**
 * A name safe to save under: its last path segment only (`/` and `\` both separate), no
 * control or bidi characters, whitespace runs as one space, no leading dots or spaces, at
 * most 120 characters and 200 bytes (shortened before the extension), else `upload.bin`.
 */
export function sanitizeUploadName(raw: string): string {
  const segments = raw
    .normalize('NFC')
    .split(/[/\\]/)
    .map((s) => s.replace(UNSAFE, '').replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 0);
  let name = (segments.at(-1) ?? '').replace(/^[.\s]+/, '');
  const { chars, bytes } = UPLOAD_NAME_LIMITS;
  if (Array.from(name).length > chars || Buffer.byteLength(name) > bytes) {
    const { stem, ext } = splitExtension(name);
    const cut = fitWithin(stem, chars - ext.length, bytes - Buffer.byteLength(ext));
    name = cut.length > 0 ? `${cut}${ext}` : fitWithin(name, chars, bytes);
  }
  name = name.replace(/[.\s]+$/, '');
  if (name.length === 0 || name === '.' || name === '..') return UPLOAD_FALLBACK_NAME;
  return name;
}

export type HeaderName = { ok: true; name: string } | { ok: false; error: string };

/** The file name from the `X-Pocketmux-Filename` header: percent-encoded UTF-8, required. */
export function uploadNameFromHeader(header: string | string[] | undefined, headerName = 'X-Pocketmux-Filename'): HeaderName {
  if (Array.isArray(header)) return { ok: false, error: `give the ${headerName} header once` };
  if (header === undefined || header.trim() === '') return { ok: false, error: `the file name is missing: send it in the ${headerName} header` };
  if (header.length > UPLOAD_NAME_LIMITS.header) return { ok: false, error: `the ${headerName} header is too long (at most ${UPLOAD_NAME_LIMITS.header} characters)` };
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    return { ok: false, error: `the ${headerName} header is not percent-encoded UTF-8` };
  }
  return { ok: true, name: sanitizeUploadName(decoded) };
}

const two = (n: number) => String(n).padStart(2, '0');

/** `yyyymmdd-hhmmss` in local time: uploads sort by when they came. */
export function uploadStamp(at: Date): string {
  return `${at.getFullYear()}${two(at.getMonth() + 1)}${two(at.getDate())}-${two(at.getHours())}${two(at.getMinutes())}${two(at.getSeconds())}`;
}

/** `<stamp>-<name>`, and for the n-th of the same name `<stamp>-<stem>-<n><ext>`. */
export function uploadFileName(stamp: string, name: string, attempt: number): string {
  if (attempt <= 1) return `${stamp}-${name}`;
  const { stem, ext } = splitExtension(name);
  return `${stamp}-${stem}-${attempt}${ext}`;
}
