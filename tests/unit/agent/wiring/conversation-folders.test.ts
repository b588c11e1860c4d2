import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTranscripts } from '../../../../agent/claude/open-transcripts.js';
import { createLogger } from '../../../../agent/util/log.js';
import { conversationFolders } from '../../../../agent/wiring/agent-clis.js';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'fixtures');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'pocketmux-conversations-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the conversation logs the agent reads', () => {
  it("reads a Claude transcript as Claude's and a Codex rollout as Codex's, each only inside its own folder", async () => {
    const claudeConfigDir = join(root, 'claude');
    const codexHome = join(root, 'codex');
    const transcript = join(claudeConfigDir, 'projects', '-home-user-proj', 'session.jsonl');
    const rollout = join(codexHome, 'sessions', '2026', '12', '04', 'rollout-2026-12-04T10-44-40-01a240a7.jsonl');
    const elsewhere = join(root, 'elsewhere', 'rollout.jsonl');
    for (const [from, to] of [
      [join(FIXTURES, 'claude-code-2.1.332', 'transcript.jsonl'), transcript],
      [join(FIXTURES, 'codex-0.169.0', 'rollout.jsonl'), rollout],
      [join(FIXTURES, 'codex-0.169.0', 'rollout.jsonl'), elsewhere],
    ] as const) {
      mkdirSync(join(to, '..'), { recursive: true });
      copyFileSync(from, to);
    }
    const followers = openTranscripts(conversationFolders({ claudeConfigDir, codexHome }), 100, createLogger({ stderr: false }));
    try {
      const codex = followers.acquire(rollout);
      expect((await codex.poll()).missing).toBe(false);
      expect(codex.entries().map((e) => e.kind)).toEqual(['prompt', 'tool-call', 'assistant-text']);
      expect(codex.stats().errors).toBe(0);
      const claude = followers.acquire(transcript);
      expect((await claude.poll()).missing).toBe(false);
      expect(claude.entries().some((e) => e.kind === 'prompt')).toBe(true);
      expect(claude.stats().errors).toBe(0);
      // A hook may name any path: one in neither folder is not read at all.
      const outside = followers.acquire(elsewhere);
      expect((await outside.poll()).missing).toBe(true);
      expect(outside.entries()).toEqual([]);
    } finally {
      followers.dispose();
    }
  });
});
