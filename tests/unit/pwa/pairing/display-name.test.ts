import { describe, expect, it } from 'vitest';
import { CreateTabBody, CreateWorkspaceBody, DisplayName, displayNameFrom, PairBody, RenameBody } from '../../../../protocol/api.js';
import { guessDeviceName } from '../../../../pwa/pairing/device-name.js';

const refused: [string, string, RegExp][] = [
  ['ESC', 'a\x1b]0;owned\x07b', /control characters \(found U\+001B\)/],
  ['tab', 'a\tb', /control characters \(found U\+0009\)/],
  ['newline', 'a\nb', /control characters \(found U\+000A\)/],
  ['DEL', 'a\u007fb', /control characters \(found U\+007F\)/],
  ['C1 NEL', 'a\u0085b', /control characters \(found U\+0085\)/],
  ['C1 CSI', 'a\u009b2Jb', /control characters \(found U\+009B\)/],
  ['right-to-left override', 'invoice\u202efdp.exe', /bidirectional formatting characters \(found U\+202E\)/],
  ['left-to-right embedding', 'a\u202ab', /bidirectional formatting characters \(found U\+202A\)/],
  ['first strong isolate', 'a\u2068b', /bidirectional formatting characters \(found U\+2068\)/],
  ['pop directional isolate', 'a\u2069b', /bidirectional formatting characters \(found U\+2069\)/],
  ['right-to-left mark', 'a\u200fb', /bidirectional formatting characters \(found U\+200F\)/],
  ['left-to-right mark', 'a\u200eb', /bidirectional formatting characters \(found U\+200E\)/],
  ['Arabic letter mark', 'a\u061cb', /bidirectional formatting characters \(found U\+061C\)/],
  ['line separator', 'a\u2028b', /line or paragraph separators \(found U\+2028\)/],
];

const accepted = ['worker', '日本語の名前', 'Pixel 8 · Chrome', 'deploy 🚀 👨‍👩‍👧', 'עברית', 'a\\x1b literal backslash'];

describe('DisplayName', () => {
  it.each(refused)('refuses a name with %s, saying why', (_what, name, message) => {
    const result = DisplayName.safeParse(name);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(message);
  });

  it('accepts plain names in any script, emoji included, unchanged', () => {
    for (const name of accepted) expect(DisplayName.parse(name)).toBe(name);
  });

  it('is the rule for workspace, tab and device names', () => {
    const bad = 'a\u202eb';
    expect(CreateWorkspaceBody.safeParse({ dir: '/tmp', name: bad }).success).toBe(false);
    expect(RenameBody.safeParse({ name: bad }).success).toBe(false);
    expect(CreateTabBody.safeParse({ workspaceId: 'ws-1', name: bad }).success).toBe(false);
    expect(PairBody.safeParse({ code: 'ABCD-EFGH', deviceName: bad }).success).toBe(false);
  });
});

describe('displayNameFrom', () => {
  it('makes a valid name from a hostile directory or session name, escapes visible', () => {
    const made = displayNameFrom('\x1b]0;owned\x07\x1b[2J\u0085\u202e', 'Workspace');
    expect(made).toBe('\\x1b]0;owned\\x07\\x1b[2J\\u0085\\u202e');
    expect(DisplayName.parse(made)).toBe(made);
  });

  it('keeps plain names as they are', () => {
    for (const name of accepted) expect(displayNameFrom(name, 'x')).toBe(name);
  });

  it('cuts long names to the limit without splitting a character', () => {
    const made = displayNameFrom(`${'a'.repeat(79)}😀tail`, 'x');
    expect(made).toBe('a'.repeat(79));
    expect(displayNameFrom('\u0085'.repeat(100), 'x').length).toBeLessThanOrEqual(80);
    expect(DisplayName.safeParse(displayNameFrom('\u0085'.repeat(100), 'x')).success).toBe(true);
  });

  it('falls back when nothing is left', () => {
    expect(displayNameFrom('   ', 'Workspace')).toBe('Workspace');
    expect(displayNameFrom('', 'Workspace')).toBe('Workspace');
  });
});

describe("the PWA's guess at a device name", () => {
  it('leaves out an Android model the agent would refuse', () => {
    const guess = guessDeviceName('Mozilla/5.0 (Linux; Android 14; Pix\u202eel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36');
    expect(guess).toBe('Android · Chrome');
    expect(DisplayName.safeParse(guess).success).toBe(true);
    expect(guessDeviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36')).toBe('Pixel 8 · Chrome');
  });
});
