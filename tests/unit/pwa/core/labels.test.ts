import { describe, expect, it } from 'vitest';
import type { TabView } from '../../../../protocol/api.js';
import { adoptQuestion, outsideLabel, parsePaneTitle, setHomeDirectory, shortPath, startedElsewhere, tabLabel } from '../../../../pwa/core/labels.js';

const tab = (fields: Partial<Pick<TabView, 'name' | 'title' | 'cwd'>> = {}): Pick<TabView, 'name' | 'title' | 'cwd'> => ({
  name: null,
  title: null,
  cwd: '/srv/app',
  ...fields,
});

describe('shortPath', () => {
  it('guesses the home directory before the agent names it', () => {
    expect(shortPath('/home/ada/proj')).toBe('~/proj');
    expect(shortPath('/Users/ada/proj')).toBe('~/proj');
    expect(shortPath('/root')).toBe('~');
    expect(shortPath('/homeless/proj')).toBe('/homeless/proj');
  });

  it('keeps only the last parts of a long path, and drops trailing slashes', () => {
    expect(shortPath('/srv/a/b/c/d/')).toBe('…/b/c/d');
    expect(shortPath('/srv/a/b/c/d', 2)).toBe('…/c/d');
    expect(shortPath('/srv/a/b')).toBe('/srv/a/b');
    expect(shortPath('/')).toBe('/');
    expect(shortPath('')).toBe('/');
  });

  it('spells out control and bidi characters, so a name cannot pass for another', () => {
    expect(shortPath('/srv/report\u202etxt.exe')).toBe('/srv/report\\u202etxt.exe');
    expect(shortPath('/srv/\x1b]0;pwned\x07')).toBe('/srv/\\x1b]0;pwned\\x07');
  });

  it('uses the home directory the agent names, as a whole path part only', () => {
    setHomeDirectory('/data/users/ada.b/');
    expect(shortPath('/data/users/ada.b/proj')).toBe('~/proj');
    expect(shortPath('/data/users/ada.b')).toBe('~');
    // The dot is literal, and a longer name sharing the prefix is someone else's directory.
    expect(shortPath('/data/users/adaxb/proj')).toBe('…/users/adaxb/proj');
    expect(shortPath('/data/users/ada.bc/proj')).toBe('…/users/ada.bc/proj');
    expect(shortPath('/home/ada/proj')).toBe('/home/ada/proj');
    // An empty answer keeps what was known.
    setHomeDirectory('/');
    expect(shortPath('/data/users/ada.b/proj')).toBe('~/proj');
  });
});

describe('parsePaneTitle', () => {
  it('splits tmux’s command|path title at the first bar', () => {
    expect(parsePaneTitle('vim|/srv/a|b')).toEqual({ command: 'vim', path: '/srv/a|b' });
  });

  it('reads a title without a path as a command, and an empty one as nothing', () => {
    expect(parsePaneTitle('  htop ')).toEqual({ command: 'htop', path: '' });
    expect(parsePaneTitle('|/srv')).toEqual({ command: '|/srv', path: '' });
    expect(parsePaneTitle('   ')).toBeNull();
  });
});

describe('tabLabel', () => {
  it('names an unnamed tab by what runs in it, and where', () => {
    expect(tabLabel(tab({ title: { command: 'vim', path: '/srv/app/src' } }))).toEqual({ primary: 'vim', command: null, path: '/srv/app/src' });
  });

  it('keeps the given name first and says what runs beside it', () => {
    expect(tabLabel(tab({ name: 'api', title: { command: 'node', path: '/srv/app' } }))).toEqual({ primary: 'api', command: 'node', path: '/srv/app' });
  });

  it('falls back to "Shell" and the tab’s directory before any title is known', () => {
    expect(tabLabel(tab())).toEqual({ primary: 'Shell', command: null, path: '/srv/app' });
    expect(tabLabel(tab({ title: { command: '', path: '' } }))).toEqual({ primary: 'Shell', command: null, path: '/srv/app' });
  });

  it('prefers the live title from the terminal over the agent’s last poll', () => {
    const label = tabLabel(tab({ title: { command: 'bash', path: '/srv/app' } }), { command: 'make', path: '/srv/app/build' });
    expect(label).toEqual({ primary: 'make', command: null, path: '/srv/app/build' });
  });

  it('spells out unsafe characters in names and commands', () => {
    const label = tabLabel(tab({ name: 'a\u202eb', title: { command: 'x\x1by', path: '/srv' } }));
    expect(label).toEqual({ primary: 'a\\u202eb', command: 'x\\x1by', path: '/srv' });
  });
});

describe('outsideLabel', () => {
  it('names a Claude started outside pocketmux by its project directory, with the path beside', () => {
    setHomeDirectory('/data/users/ada.b');
    expect(outsideLabel('/data/users/ada.b/code/api')).toEqual({ primary: 'api', path: '~/code/api' });
    expect(outsideLabel('/srv/a/b/c/web/')).toEqual({ primary: 'web', path: '…/b/c/web' });
    expect(outsideLabel('/data/users/ada.b')).toEqual({ primary: 'ada.b', path: '~' });
    expect(outsideLabel('/')).toEqual({ primary: '/', path: '/' });
  });

  it('is "Claude" while its directory is unknown', () => {
    expect(outsideLabel(null)).toEqual({ primary: 'Claude', path: '' });
    expect(outsideLabel('')).toEqual({ primary: 'Claude', path: '' });
  });

  it('spells out unsafe characters in the name and the path', () => {
    expect(outsideLabel('/srv/report\u202etxt.exe')).toEqual({ primary: 'report\\u202etxt.exe', path: '/srv/report\\u202etxt.exe' });
    expect(outsideLabel('/srv/\x1b]0;x\x07')).toEqual({ primary: '\\x1b]0;x\\x07', path: '/srv/\\x1b]0;x\\x07' });
  });
});

describe('adoptQuestion', () => {
  it('says in plain words what adopting ends, where, and what is lost', () => {
    expect(adoptQuestion('tmux')).toBe(
      'Move this conversation into a pocketmux tab? Its claude in your tmux is ended, and a Claude tab here resumes the same conversation. Anything typed but not sent there is lost.',
    );
    expect(adoptQuestion('none')).toContain('Its claude in its terminal is ended');
  });
});

describe('the outside group’s line', () => {
  it('names each CLI its sessions run, Claude for sessions from agents before Codex and for none', () => {
    expect(startedElsewhere([])).toBe('Claude started elsewhere on this machine');
    expect(startedElsewhere([{}, { agent: 'claude' }])).toBe('Claude started elsewhere on this machine');
    expect(startedElsewhere([{ agent: 'codex' }])).toBe('Codex started elsewhere on this machine');
    expect(startedElsewhere([{ agent: 'codex' }, {}])).toBe('Claude and Codex started elsewhere on this machine');
  });
});
