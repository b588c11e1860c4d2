import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hookScript, } from '../../agent/claude/hook-files.js';

describe('hook files', () => {
  it('the statusline wrapper reports in the background and runs the person’s own command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pocketmux-statusline-'));
    try {
      const path = join(dir, 'hook.sh');
      // Port 9 is refused at once: the report fails quietly, the person's line still prints.
      writeFileSync(path, hookScript({ port: 9, tokenHeaderFile: join(dir, 'token-header'), userStatusLine: `read -r x; printf 'mine:%s' "$x"` }), { mode: 0o700 });
      const result = spawnSync('/bin/sh', [path, 'statusline'], { input: '{"session_id":"s-1"}\n', encoding: 'utf8', timeout: 5000 });
      expect(result.status).toBe(0);
      expect(result.stdout).toBe('mine:{"session_id":"s-1"}');
      writeFileSync(join(dir, 'plain.sh'), hookScript({ port: 9, tokenHeaderFile: join(dir, 'token-header') }), { mode: 0o700 });
      const plain = spawnSync('/bin/sh', [join(dir, 'plain.sh'), 'statusline'], { input: '{"a":1}', encoding: 'utf8', timeout: 5000 });
      expect(plain.status).toBe(0);
      expect(plain.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

});
