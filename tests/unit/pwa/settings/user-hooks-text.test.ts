import { describe, expect, it } from 'vitest';
import type { UserHooksView } from '../../../../protocol/outside.js';
import { setHomeDirectory } from '../../../../pwa/core/labels.js';
import { parseUserHooks, plainText, userHooksError, userHooksMessage } from '../../../../pwa/settings/user-hooks-text.js';

setHomeDirectory('/home/ada');

const view = (fields: Partial<UserHooksView> = {}): UserHooksView => ({
  state: 'installed',
  settingsPath: '/home/ada/.claude/settings.json',
  installCommand: "pocketmux hooks install --data-dir '/home/ada/.pm'",
  detail: null,
  ...fields,
});

describe('what the settings say about Claude started outside pocketmux', () => {
  it('says every Claude on the machine reports, and where the hooks are', () => {
    const m = userHooksMessage(view());
    expect(m.tone).toBe('on');
    expect(plainText(m)).toBe('Claude started anywhere on this machine reports here (hooks installed in ~/.claude/settings.json).');
  });

  it('says only the tabs report without the hooks, and the command that installs them as code', () => {
    const m = userHooksMessage(view({ state: 'none' }));
    expect(m.tone).toBe('off');
    expect(plainText(m)).toBe("Only Claude tabs started here report. To see every Claude on this machine, run pocketmux hooks install --data-dir '/home/ada/.pm' on it.");
    expect(m.parts).toContainEqual({ code: "pocketmux hooks install --data-dir '/home/ada/.pm'" });
  });

  it('says when only part of them are installed', () => {
    const m = userHooksMessage(view({ state: 'some' }));
    expect(m.tone).toBe('off');
    expect(plainText(m)).toMatch(/^Only Claude tabs started here report in full: just part of pocketmux's hooks are installed in ~\/\.claude\/settings\.json\. To see every Claude/);
    expect(m.parts.filter((p) => 'code' in p)).toHaveLength(1);
  });

  it('cannot tell when the settings could not be read, and says why', () => {
    const m = userHooksMessage(view({ state: 'unknown', detail: 'settings.json is not valid JSON' }));
    expect(m.tone).toBe('unknown');
    expect(plainText(m)).toBe('Cannot tell whether Claude started outside pocketmux reports here: settings.json is not valid JSON');
  });

  it('spells out control and bidi characters in paths, commands and reasons', () => {
    const text = plainText(userHooksMessage(view({ settingsPath: '/srv/a\u202eb/settings.json' })));
    expect(text).toContain('/srv/a\\u202eb/settings.json');
    const none = userHooksMessage(view({ state: 'none', installCommand: 'pocketmux\x1b[2J hooks install' }));
    expect(none.parts).toContainEqual({ code: 'pocketmux\\x1b[2J hooks install' });
    expect(plainText(userHooksMessage(view({ state: 'unknown', detail: 'bad\u2028line' })))).toContain('bad\\u2028line');
  });

  it('reads the agent’s answer, and cannot tell from one it does not know or a failed request', () => {
    expect(parseUserHooks(view({ state: 'none' })).tone).toBe('off');
    expect(parseUserHooks({ state: 'everything' }).tone).toBe('unknown');
    expect(plainText(userHooksError('Not connected'))).toBe('Cannot tell whether Claude started outside pocketmux reports here: Not connected');
  });
});
