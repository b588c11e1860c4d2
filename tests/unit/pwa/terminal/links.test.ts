import { describe, expect, it } from 'vitest';
import { openableUrl } from '../../../../pwa/terminal/links.js';
import { MAX_OSC52_BASE64, osc52Text } from '../../../../pwa/terminal/osc52.js';
import { pageTitle } from '../../../../pwa/terminal/page-title.js';

describe('links printed in the terminal', () => {
  it('open when they are http(s)', () => {
    expect(openableUrl('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(openableUrl('http://localhost:8420/')).toBe('http://localhost:8420/');
    expect(openableUrl(' HTTPS://Example.com ')).toBe('https://example.com/');
  });

  it('never open as anything else', () => {
    for (const text of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<b>x', 'file:///etc/passwd', 'vbscript:x', 'ftp://host/f', '//evil.example', '/relative', 'example.com', '', 'not a url']) {
      expect(openableUrl(text), text).toBeNull();
    }
  });
});

function osc52(text: string): string {
  return `c;${Buffer.from(text, 'utf8').toString('base64')}`;
}

describe('OSC 52 (tmux copying a selection)', () => {
  it('gives the text, in any script', () => {
    expect(osc52Text(osc52('hello'))).toBe('hello');
    expect(osc52Text(osc52('ls -la\n~/проект 日本 🙂'))).toBe('ls -la\n~/проект 日本 🙂');
    expect(osc52Text(`p;${Buffer.from('primary').toString('base64')}`)).toBe('primary');
    expect(osc52Text(`;${Buffer.from('no selection named').toString('base64')}`)).toBe('no selection named');
  });

  it('never answers a query, and ignores what is malformed, empty or too large', () => {
    expect(osc52Text('c;?')).toBeNull();
    expect(osc52Text('c;')).toBeNull();
    expect(osc52Text('nosemicolon')).toBeNull();
    expect(osc52Text('c;not base64!')).toBeNull();
    expect(osc52Text('c;abcde')).toBeNull();
    expect(osc52Text(`c;${'A'.repeat(MAX_OSC52_BASE64 + 4)}`)).toBeNull();
  });
});

describe('the page title', () => {
  it('names the open tab, after the count of what waits', () => {
    expect(pageTitle(0, 'api')).toBe('api · pocketmux');
    expect(pageTitle(2, 'api')).toBe('(2) api · pocketmux');
  });

  it('is the app alone without a tab', () => {
    expect(pageTitle(0, '')).toBe('pocketmux');
    expect(pageTitle(3, '  ')).toBe('(3) pocketmux');
  });
});
