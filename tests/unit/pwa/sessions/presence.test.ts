import { describe, expect, it } from 'vitest';
import { type PresenceMessage, PresenceReporter, presenceOf, samePresence } from '../../../../pwa/sessions/presence.js';

function reporter(open = true) {
  const sent: PresenceMessage[] = [];
  const state = { open };
  const r = new PresenceReporter(presenceOf(null, 'visible', true), (msg) => {
    if (!state.open) return false;
    sent.push(msg);
    return true;
  });
  return { r, sent, state };
}

describe('presence: what the person looks at', () => {
  it('is visible only when the page is both shown and focused', () => {
    expect(presenceOf('t1', 'visible', true)).toEqual({ tabId: 't1', visible: true });
    expect(presenceOf('t1', 'visible', false)).toEqual({ tabId: 't1', visible: false });
    expect(presenceOf('t1', 'hidden', true)).toEqual({ tabId: 't1', visible: false });
    expect(presenceOf(null, 'visible', true)).toEqual({ tabId: null, visible: true });
    expect(samePresence(null, { tabId: null, visible: false })).toBe(false);
    expect(samePresence({ tabId: 'a', visible: true }, { tabId: 'a', visible: true })).toBe(true);
    expect(samePresence({ tabId: 'a', visible: true }, { tabId: 'a', visible: false })).toBe(false);
  });

  it('says nothing before the first sync, then what is current', () => {
    const { r, sent } = reporter();
    r.update(presenceOf('t1', 'visible', true));
    r.update(presenceOf('t2', 'visible', true));
    expect(sent).toEqual([]);
    r.synced();
    expect(sent).toEqual([{ type: 'status:presence', tabId: 't2', visible: true }]);
  });

  it('sends only when the value changes', () => {
    const { r, sent } = reporter();
    r.synced();
    r.update(presenceOf(null, 'visible', true));
    r.update(presenceOf('t1', 'visible', true));
    r.update(presenceOf('t1', 'visible', true));
    r.update(presenceOf('t1', 'visible', false));
    r.update(presenceOf('t1', 'hidden', false));
    r.update(presenceOf('t1', 'visible', true));
    r.synced();
    expect(sent.map((m) => [m.tabId, m.visible])).toEqual([
      [null, true],
      ['t1', true],
      ['t1', false],
      ['t1', true],
    ]);
  });

  it('tells every new socket after its first sync, even when nothing changed', () => {
    const { r, sent } = reporter();
    r.update(presenceOf('t1', 'visible', true));
    r.synced();
    r.reset();
    r.update(presenceOf('t1', 'visible', true));
    expect(sent).toHaveLength(1);
    r.synced();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ type: 'status:presence', tabId: 't1', visible: true });
  });

  it('tries again what a closed socket could not take', () => {
    const { r, sent, state } = reporter();
    r.synced();
    state.open = false;
    r.update(presenceOf('t1', 'visible', true));
    expect(sent).toHaveLength(1);
    state.open = true;
    r.update(presenceOf('t1', 'visible', true));
    expect(sent.at(-1)).toEqual({ type: 'status:presence', tabId: 't1', visible: true });
  });
});
