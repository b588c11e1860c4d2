import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeUserHooks, unmergeUserHooks, userHooksState } from '../../../../agent/claude/user-hooks.js';
import { type CodexAppServer, codexHookTrust } from '../../../../agent/codex/app-server.js';
import { CODEX_USER_HOOKS, codexTrustOf } from '../../../../agent/codex/user-hooks.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'codex-0.169.0');
const SCRIPT = '/home/user/.local/share/pocketmux/hooks/hook.sh';
const FILE = '/home/user/.codex/hooks.json';
const theirs = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 5 }] }] } };

/** `hooks/list` as captured, answered by a server that is only that capture. */
function captured(): CodexAppServer {
  const list = JSON.parse(readFileSync(join(FIXTURES, 'hooks-list-user.json'), 'utf8')) as unknown;
  return { call: async () => list, close: async () => undefined };
}

describe("pocketmux's hooks in Codex's hooks.json", () => {
  it('writes the file the capture was taken of: the person’s hook first, ours after, with no matcher and the timeouts Codex gives', () => {
    const merged = mergeUserHooks(theirs, SCRIPT, CODEX_USER_HOOKS);
    expect(merged).toMatchObject({ changed: true, statusLine: 'none' });
    expect(merged.added).toHaveLength(12);
    expect(merged.settings).toEqual(JSON.parse(readFileSync(join(FIXTURES, 'user-hooks.json'), 'utf8')));
    expect(userHooksState(merged.settings, SCRIPT, CODEX_USER_HOOKS)).toMatchObject({ missing: [], statusLine: 'none' });
    expect(mergeUserHooks(merged.settings, SCRIPT, CODEX_USER_HOOKS).changed).toBe(false);
    expect(unmergeUserHooks(merged.settings, SCRIPT).settings).toEqual(theirs);
  });

  it('keys and hashes each of our hooks as Codex does, by where it stands in the file', async () => {
    const settings = JSON.parse(readFileSync(join(FIXTURES, 'user-hooks.json'), 'utf8')) as Record<string, unknown>;
    const trust = codexTrustOf(settings, FILE, SCRIPT);
    expect(trust).toHaveLength(12);
    expect(trust.find((t) => t.event === 'Stop')?.key).toBe(`${FILE}:stop:1:0`);
    const known = await codexHookTrust(captured());
    // Every hook Codex listed that is ours, with the hash Codex computed; the person's own is not ours.
    for (const t of trust) expect(known.get(t.key)).toEqual({ trusted: false, hash: t.hash });
    expect(known.get(`${FILE}:stop:0:0`)).toBeDefined();
    expect(trust.some((t) => t.key === `${FILE}:stop:0:0`)).toBe(false);
  });

  it('refuses an answer to hooks/list that is not a list of hooks', async () => {
    const odd: CodexAppServer = { call: async () => ({ data: [{ hooks: [{ key: 1 }] }] }), close: async () => undefined };
    await expect(codexHookTrust(odd)).rejects.toThrow(/something else than hooks/);
  });
});
