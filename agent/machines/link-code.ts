import { LINK_CODE_MAX, LINK_CODE_PREFIX, LinkCodeBody } from '../../protocol/machines.js';
import { safeParse } from '../../protocol/safe-parse.js';

/** A link code as printed: the prefix and the base64url of its JSON. */
export function encodeLinkCode(body: LinkCodeBody): string {
  return `${LINK_CODE_PREFIX}${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}`;
}

export type DecodedLinkCode = { ok: true; body: LinkCodeBody } | { ok: false; error: string };

/**
 * What a pasted link code holds, or why it is not one. Spaces and line breaks a terminal or a
 * chat app put inside it are dropped; anything else wrong is said, not guessed at.
 */
export function decodeLinkCode(text: string): DecodedLinkCode {
  const code = text.replace(/\s+/g, '');
  if (code.length > LINK_CODE_MAX) return { ok: false, error: `a link code is at most ${LINK_CODE_MAX} characters` };
  if (!code.startsWith(LINK_CODE_PREFIX)) {
    return { ok: false, error: `not a link code: it starts with ${LINK_CODE_PREFIX} (run \`pocketmux machines link-code\` on the other machine)` };
  }
  const payload = code.slice(LINK_CODE_PREFIX.length);
  if (!/^[A-Za-z0-9_-]+$/.test(payload)) return { ok: false, error: 'the link code is damaged (copied only in part?)' };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, error: 'the link code is damaged (copied only in part?)' };
  }
  const parsed = safeParse(LinkCodeBody, json);
  if (!parsed.success) return { ok: false, error: `the link code is damaged: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'code'}: ${i.message}`).join('; ')}` };
  return { ok: true, body: parsed.data };
}
