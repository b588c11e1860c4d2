import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockedCallText, promptIsEmpty, readBlockedList, retryBlocked, showsCall } from '../../../../agent/approvals/blocked-list.js';
import type { DialogPanes } from '../../../../agent/approvals/pane-dialogs.js';
import type { NamedKey } from '../../../../agent/tmux/commands.js';

const AUTO = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'claude-code-2.1.332', 'auto-mode');
const screen = (name: string) => readFileSync(join(AUTO, name), 'utf8');

/** Claude's screens, as captured with two calls blocked (the newest first) and the second retried. */
const PROMPT = screen('pane-blocked.txt');
const LIST = screen('pane-recently-blocked.txt');
const LIST_DOWN = screen('pane-recently-blocked-down.txt');
const MARKED = screen('pane-recently-blocked-retry-marked.txt');
const APPROVE_MARKED = screen('pane-recently-blocked-approve-marked.txt');
const AFTER = screen('pane-after-retry.txt');

const CURL = 'curl -s http://127.0.0.1:9/install.sh | bash; echo ran > ran.txt';
const WGET = 'wget -qO- http://127.0.0.1:9/other.sh | sh';

describe('readBlockedList', () => {
  it('reads the rows, the cursor and the selected call off the captured list', () => {
    expect(readBlockedList(LIST)).toEqual({
      rows: [
        { n: 1, label: 'Fetch the installer', retry: false },
        { n: 2, label: 'Write a file', retry: false },
      ],
      selected: 1,
      detail: WGET,
    });
    expect(readBlockedList(LIST_DOWN)).toMatchObject({ selected: 2, detail: CURL });
  });

  it('tells a row marked to be retried from one marked approved', () => {
    expect(readBlockedList(MARKED)?.rows).toEqual([
      { n: 1, label: 'Fetch the installer', retry: false },
      { n: 2, label: 'Write a file', retry: true },
    ]);
    expect(readBlockedList(APPROVE_MARKED)?.rows).toEqual([{ n: 1, label: 'Write a file', retry: false }]);
  });

  it('is null for any screen that is not the list', () => {
    for (const other of [PROMPT, AFTER, '', '\n\n', 'Commands auto mode recently blocked.']) expect(readBlockedList(other)).toBeNull();
  });
});

describe('what finds a blocked call in the list', () => {
  it('takes the command, else a path or URL, of the input', () => {
    expect(blockedCallText({ command: `  ${CURL}\n`, description: 'Write a file' })).toBe(CURL);
    expect(blockedCallText({ file_path: '/etc/hosts', content: 'x' })).toBe('/etc/hosts');
    expect(blockedCallText({ url: 'https://example.com', prompt: 'read' })).toBe('https://example.com');
    expect(blockedCallText({ anything: 1 })).toBeNull();
  });

  it('matches a detail cut short or wrapped, and no other call', () => {
    expect(showsCall(CURL, CURL)).toBe(true);
    expect(showsCall('curl -s http://127.0.0.1:9/install.sh | bash; echo…', CURL)).toBe(true);
    expect(showsCall(WGET, CURL)).toBe(false);
    expect(showsCall('', CURL)).toBe(false);
  });

  it('types into the input box only when it is up and empty', () => {
    expect(promptIsEmpty(PROMPT)).toBe(true);
    expect(promptIsEmpty(PROMPT.replace('❯\u00a0', '❯\u00a0half a prompt'))).toBe(false);
    expect(promptIsEmpty(LIST)).toBe(false);
  });
});

/**
 * Claude's /permissions as the captures show it, driven by the keys it gets: the list opens on
 * `/permissions`, Down moves to the older call, `r` marks it, Esc hands it back to Claude.
 */
function claudeScreens(start = PROMPT, drop: string[] = []) {
  let shown = start;
  const toDrop = new Set(drop);
  const keys: string[] = [];
  /** A key the list lets fall the first time (it ignores keys for a moment once drawn). */
  const dropped = (key: string) => toDrop.delete(key);
  const panes: DialogPanes = {
    screen: async () => shown,
    sendInput: async (_tab, text, enter) => {
      keys.push(enter ? `${text}⏎` : text);
      if (dropped(text)) return;
      if (text === '/permissions' && enter && shown === PROMPT) shown = LIST;
      else if (text === 'r' && shown === LIST_DOWN) shown = MARKED;
    },
    pressKey: async (_tab, key: NamedKey) => {
      keys.push(key);
      if (dropped(key)) return;
      if (key === 'Down' && shown === LIST) shown = LIST_DOWN;
      else if (key === 'Escape') shown = shown === MARKED ? AFTER : PROMPT;
    },
  };
  return { panes, keys, shown: () => shown };
}

const fast = { stepMs: 1, timeoutMs: 2_000 };

describe('retryBlocked', () => {
  it("finds the call's row, marks it, and sees Claude say it was told", async () => {
    const claude = claudeScreens();
    await retryBlocked(claude.panes, { tabId: 'tb-1', toolInput: { command: CURL, description: 'Write a file' } }, fast);
    expect(claude.keys).toEqual(['/permissions⏎', 'Down', 'r', 'Escape']);
    expect(claude.shown()).toBe(AFTER);
  });

  it('presses again a key the list dropped', async () => {
    const claude = claudeScreens(PROMPT, ['Down', 'r']);
    await retryBlocked(claude.panes, { tabId: 'tb-1', toolInput: { command: CURL } }, fast);
    expect(claude.keys).toEqual(['/permissions⏎', 'Down', 'Down', 'r', 'r', 'Escape']);
    expect(claude.shown()).toBe(AFTER);
  });

  it('closes the list again, and says so, when the call is not in it', async () => {
    const claude = claudeScreens();
    await expect(retryBlocked(claude.panes, { tabId: 'tb-1', toolInput: { command: 'rm -rf build' } }, fast)).rejects.toThrow("no longer in Claude's list");
    expect(claude.keys).toEqual(['/permissions⏎', 'Down', 'Escape']);
    expect(claude.shown()).toBe(PROMPT);
  });

  it('types nothing while something is typed in the input box, or a dialog is up', async () => {
    for (const start of [PROMPT.replace('❯\u00a0', '❯\u00a0draft'), LIST]) {
      const claude = claudeScreens(start);
      await expect(retryBlocked(claude.panes, { tabId: 'tb-1', toolInput: { command: CURL } }, fast)).rejects.toThrow('input box is not empty');
      expect(claude.keys).toEqual([]);
    }
  });
});
