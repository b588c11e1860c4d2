import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SETTINGS } from '../../../../protocol/push.js';
import { type BrowserFacts, blockedText, blockerOf, notificationsState, platformOf, sameKey, urlBase64ToUint8Array } from '../../../../pwa/push/push-state.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const PIXEL = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36';
const LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

const ready: BrowserFacts = { secure: true, pushSupported: true, platform: 'android', standalone: false, permission: 'default' };

describe('the VAPID key for pushManager.subscribe', () => {
  it('turns the agent’s base64url key into the uncompressed P-256 point it encodes', () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const point = publicKey.export({ format: 'der', type: 'spki' }).subarray(-65);
    const bytes = urlBase64ToUint8Array(point.toString('base64url'));
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
    expect(Buffer.from(bytes).equals(point)).toBe(true);
  });

  it('takes padding, and the characters base64url uses in place of + and /', () => {
    expect([...urlBase64ToUint8Array('-_8')]).toEqual([0xfb, 0xff]);
    expect([...urlBase64ToUint8Array('-_8=')]).toEqual([0xfb, 0xff]);
    expect([...urlBase64ToUint8Array('AQID')]).toEqual([1, 2, 3]);
    expect([...urlBase64ToUint8Array('')]).toEqual([]);
  });

  it('tells a subscription made for another key', () => {
    const key = Buffer.from([4, 1, 2, 3]).toString('base64url');
    expect(sameKey(new Uint8Array([4, 1, 2, 3]).buffer, key)).toBe(true);
    expect(sameKey(new Uint8Array([4, 1, 2, 9]).buffer, key)).toBe(false);
    expect(sameKey(new Uint8Array([4, 1, 2]).buffer, key)).toBe(false);
    // A browser that does not say which key: taken as this one.
    expect(sameKey(null, key)).toBe(true);
  });
});

describe('which platform’s words to use', () => {
  it('knows iPhone, an iPad asking for desktop sites, Android, and the rest', () => {
    expect(platformOf(IPHONE)).toBe('ios');
    expect(platformOf(IPAD_DESKTOP, 5)).toBe('ios');
    expect(platformOf(IPAD_DESKTOP, 0)).toBe('desktop');
    expect(platformOf(PIXEL, 5)).toBe('android');
    expect(platformOf(LINUX)).toBe('desktop');
  });
});

describe('what the Notifications section says', () => {
  it('asks for HTTPS before anything else', () => {
    expect(blockerOf({ ...ready, secure: false, pushSupported: false })).toBe('insecure');
    expect(blockerOf({ ...ready, secure: false, platform: 'ios' })).toBe('insecure');
    const text = blockedText('insecure', 'android');
    expect(text.title).toBe('Notifications need HTTPS');
    expect(text.todo).toContain('“Put it on your phone”');
  });

  it('sends iOS Safari to the home screen, whatever else it offers', () => {
    expect(blockerOf({ ...ready, platform: 'ios', standalone: false })).toBe('ios-home-screen');
    expect(blockerOf({ ...ready, platform: 'ios', standalone: false, pushSupported: false })).toBe('ios-home-screen');
    expect(blockedText('ios-home-screen', 'ios').todo).toBe('Add pocketmux to your home screen (Share → Add to Home Screen), open it from there, then enable notifications.');
    // From the home screen it is like any browser; without the Push API there, iOS is too old.
    expect(blockerOf({ ...ready, platform: 'ios', standalone: true })).toBeNull();
    expect(blockerOf({ ...ready, platform: 'ios', standalone: true, pushSupported: false })).toBe('ios-too-old');
    expect(blockedText('ios-too-old', 'ios').why).toContain('16.4');
  });

  it('says a browser without the Push API cannot, and a denied permission how to allow it again', () => {
    expect(blockerOf({ ...ready, pushSupported: false })).toBe('unsupported');
    expect(blockerOf({ ...ready, permission: 'denied' })).toBe('denied');
    expect(blockedText('denied', 'desktop').todo).toMatch(/icon left of the address bar.*Notifications → Allow/);
    expect(blockedText('denied', 'android').todo).toMatch(/Site settings → Notifications/);
    expect(blockedText('denied', 'android').note).toMatch(/App info → Notifications/);
    expect(blockedText('denied', 'ios').todo).toMatch(/Settings app → Notifications → pocketmux/);
  });

  it('is on only when both the agent and the browser hold the subscription', () => {
    const agent = { subscribed: true, settings: { ...DEFAULT_PUSH_SETTINGS, review: false } };
    expect(notificationsState(ready, null, null)).toEqual({ kind: 'loading' });
    expect(notificationsState(ready, { error: 'could not reach the agent' }, null)).toEqual({ kind: 'load-failed', message: 'could not reach the agent' });
    expect(notificationsState(ready, agent, true)).toEqual({ kind: 'on', settings: agent.settings });
    // The browser could not be asked (no service worker yet): the agent's word.
    expect(notificationsState(ready, agent, null)).toEqual({ kind: 'on', settings: agent.settings });
    // The browser lost it (site data cleared): off, to be enabled again.
    expect(notificationsState(ready, agent, false)).toEqual({ kind: 'off' });
    expect(notificationsState(ready, { ...agent, subscribed: false }, true)).toEqual({ kind: 'off' });
    expect(notificationsState({ ...ready, permission: 'granted' }, { ...agent, subscribed: false }, false)).toEqual({ kind: 'off' });
    // A blocked browser says why, whatever the agent holds.
    expect(notificationsState({ ...ready, permission: 'denied' }, agent, true)).toEqual({ kind: 'blocked', blocker: 'denied' });
  });
});
