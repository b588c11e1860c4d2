import { describe, expect, it } from 'vitest';
import type { OutsideSession } from '../../../../agent/outside/outside-sessions.js';
import { sessionPlace } from '../../../../agent/wiring/session-place.js';

describe('session place', () => {
  const tabs = { place: (id: string) => (id === 'tb-1' ? { tab: 'Claude', workspace: 'web' } : null) };
  const outside = { get: (key: string) => (key === 'outside-a' ? ({ key, cwd: '/home/me/shop' } as OutsideSession) : undefined) };
  const place = sessionPlace(tabs, outside);

  it('names a tab by its name and workspace', () => {
    expect(place('tb-1')).toEqual({ tab: 'Claude', workspace: 'web' });
  });

  it("names an outside session by its directory's name, in the outside group", () => {
    expect(place('outside-a')).toEqual({ workspace: 'Outside pocketmux', tab: 'shop' });
  });

  it('names nothing it does not know', () => {
    expect(place('tb-gone')).toBeNull();
    expect(place('outside-gone')).toBeNull();
  });
});
