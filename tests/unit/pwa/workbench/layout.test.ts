import { describe, expect, it } from 'vitest';
import {
  closePane,
  equalize,
  fitSizes,
  keepPanes,
  type Layout,
  LAYOUT_STORAGE_KEY,
  loadLayout,
  MAX_PANES,
  MIN_SHARE,
  moveDivider,
  openBeside,
  openInFocused,
  parseLayout,
  saveLayout,
  singlePane,
} from '../../../../pwa/workbench/layout.js';

const term = (tabId: string) => ({ tabId, view: 'terminal' as const });
const ids = (l: Layout) => l.panes.map((p) => p.tabId);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function memory(): Storage {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
    key: () => null,
    get length() {
      return map.size;
    },
  };
}

describe('opening tabs in the split', () => {
  it('puts a tab in the focused pane, or focuses the pane that already shows it', () => {
    let l = openBeside(singlePane(term('a')), term('b'));
    expect(ids(l)).toEqual(['a', 'b']);
    expect(l.focused).toBe(1);
    l = openInFocused(l, term('c'));
    expect(ids(l)).toEqual(['a', 'c']);
    l = openInFocused(l, { tabId: 'a', view: 'timeline' });
    expect(ids(l)).toEqual(['a', 'c']);
    expect(l.focused).toBe(0);
    expect(l.panes[0]?.view).toBe('timeline');
  });

  it('splits the focused pane in half, up to four panes, and never shows a tab twice', () => {
    let l = singlePane(term('a'));
    l = openBeside(l, term('b'));
    expect(l.sizes).toEqual([0.5, 0.5]);
    l = openBeside({ ...l, focused: 0 }, term('c'));
    expect(ids(l)).toEqual(['a', 'c', 'b']);
    expect(l.sizes).toEqual([0.25, 0.25, 0.5]);
    l = openBeside(l, term('d'));
    expect(l.panes).toHaveLength(MAX_PANES);
    expect(sum(l.sizes)).toBeCloseTo(1);
    expect(Math.min(...l.sizes)).toBeGreaterThanOrEqual(MIN_SHARE - 1e-9);
    // A fifth goes where the focus is, as a click in the sidebar would.
    const full = openBeside(l, term('e'));
    expect(full.panes).toHaveLength(MAX_PANES);
    expect(full.panes[full.focused]?.tabId).toBe('e');
    // One already up is focused, not opened again.
    const again = openBeside(l, term('a'));
    expect(ids(again)).toEqual(ids(l));
    expect(again.panes[again.focused]?.tabId).toBe('a');
  });
});

describe('closing and resizing', () => {
  it('gives a closed pane its room to its neighbour and keeps the focus sensible', () => {
    const l: Layout = { panes: [term('a'), term('b'), term('c')], focused: 2, direction: 'row', sizes: [0.2, 0.3, 0.5] };
    const closed = closePane(l, 1);
    expect(ids(closed)).toEqual(['a', 'c']);
    expect(closed.sizes).toEqual([0.5, 0.5]);
    expect(closed.focused).toBe(1);
    expect(closePane(l, 0).sizes).toEqual([0.5, 0.5]);
    expect(closePane(l, 2).focused).toBe(1);
    // The last pane stays.
    expect(closePane(singlePane(term('a')), 0).panes).toHaveLength(1);
  });

  it('moves a divider between its two panes only, never under the minimum share', () => {
    const l: Layout = { panes: [term('a'), term('b'), term('c')], focused: 0, direction: 'row', sizes: [0.3, 0.3, 0.4] };
    const moved = moveDivider(l, 0, 0.1);
    expect(moved.sizes[0]).toBeCloseTo(0.4);
    expect(moved.sizes[1]).toBeCloseTo(0.2);
    expect(moved.sizes[2]).toBe(0.4);
    const far = moveDivider(l, 0, 5);
    expect(far.sizes[1]).toBeCloseTo(MIN_SHARE);
    expect(far.sizes[0]).toBeCloseTo(0.6 - MIN_SHARE);
    expect(moveDivider(l, 2, 0.1)).toBe(l);
    expect(moveDivider(l, 0, Number.NaN)).toBe(l);
    expect(equalize(moved).sizes.every((s) => Math.abs(s - 1 / 3) < 1e-9)).toBe(true);
  });

  it('mends shares that do not add up or are too small', () => {
    expect(fitSizes([1, 1])).toEqual([0.5, 0.5]);
    const raised = fitSizes([0.01, 0.99]);
    expect(raised[0]).toBeCloseTo(MIN_SHARE);
    expect(sum(raised)).toBeCloseTo(1);
    expect(fitSizes([0, 1, -1])).toEqual([1 / 3, 1 / 3, 1 / 3]);
    expect(fitSizes([Number.POSITIVE_INFINITY, 1])).toEqual([0.5, 0.5]);
  });

  it('drops the panes of tabs that are gone, keeping one', () => {
    const l: Layout = { panes: [term('a'), term('b'), term('c')], focused: 1, direction: 'column', sizes: [0.2, 0.3, 0.5] };
    const kept = keepPanes(l, (id) => id === 'b');
    expect(ids(kept)).toEqual(['b']);
    expect(kept.sizes).toEqual([1]);
    expect(ids(keepPanes(l, () => false))).toHaveLength(1);
  });
});

describe('the layout remembered on this device', () => {
  it('comes back as it was saved', () => {
    const storage = memory();
    const l: Layout = { panes: [term('a'), { tabId: 'outside-x1', view: 'timeline' }], focused: 1, direction: 'column', sizes: [0.6, 0.4] };
    saveLayout(storage, l);
    expect(loadLayout(storage)).toEqual(l);
  });

  it('refuses what this version did not write, whatever is in storage', () => {
    const storage = memory();
    for (const bad of ['{', 'null', '[]', '{"version":2}', JSON.stringify({ version: 1, panes: [], sizes: [], direction: 'row' })]) {
      storage.setItem(LAYOUT_STORAGE_KEY, bad);
      expect(loadLayout(storage), bad).toBeNull();
    }
    const base = { version: 1, focused: 0, direction: 'row', sizes: [0.5, 0.5] };
    expect(parseLayout({ ...base, panes: [term('a'), term('a')] })).toBeNull();
    expect(parseLayout({ ...base, panes: [term('a'), term('../x')] })).toBeNull();
    expect(parseLayout({ ...base, panes: [term('a'), { tabId: 'b', view: 'shell' }] })).toBeNull();
    expect(parseLayout({ ...base, direction: 'diagonal', panes: [term('a'), term('b')] })).toBeNull();
    expect(parseLayout({ ...base, sizes: [0.5], panes: [term('a'), term('b')] })).toBeNull();
    expect(parseLayout({ ...base, panes: ['a', 'b', 'c', 'd', 'e'].map(term), sizes: [0.2, 0.2, 0.2, 0.2, 0.2] })).toBeNull();
    // A focus out of range, or shares that do not add up, are mended rather than refused.
    const mended = parseLayout({ ...base, focused: 9, sizes: [3, 1], panes: [term('a'), term('b')] });
    expect(mended?.focused).toBe(0);
    expect(mended?.sizes).toEqual([0.75, 0.25]);
  });

  it('is not remembered, and nothing breaks, where storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(loadLayout(refusing)).toBeNull();
    expect(() => saveLayout(refusing, singlePane(term('a')))).not.toThrow();
  });
});
