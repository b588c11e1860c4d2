/**
 * What the Notifications section says for this browser, worked out from what the browser
 * offers (a secure context, the Push API, the permission, a home-screen app on iOS) and what
 * the agent knows (`GET /api/push`). Pure, so every case is tested apart from the screen.
 */
import type { PushSettings } from '../../protocol/push.js';

/** The agent's VAPID key, base64url as it publishes it, as the bytes `pushManager.subscribe` takes. */
export function urlBase64ToUint8Array(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const raw = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made for `publicKey`; unknown (null key) counts as a match. */
export function sameKey(applicationServerKey: ArrayBuffer | null | undefined, publicKey: string): boolean {
  if (!applicationServerKey) return true;
  const a = new Uint8Array(applicationServerKey);
  const b = urlBase64ToUint8Array(publicKey);
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Whose words to use for the browser's own settings. */
export type Platform = 'ios' | 'android' | 'desktop';

/**
 * iPhone, iPad and iPod by their User-Agent; an iPad asking for desktop sites says "Macintosh"
 * but has a touch screen, which no Mac has.
 */
export function platformOf(userAgent: string, maxTouchPoints = 0): Platform {
  if (/\b(iPhone|iPad|iPod)\b/.test(userAgent)) return 'ios';
  if (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/\bAndroid\b/.test(userAgent)) return 'android';
  return 'desktop';
}

/** What the browser offers, read once when the section loads (and again after asking). */
export interface BrowserFacts {
  /** `isSecureContext`: HTTPS, or http://127.0.0.1 / localhost on the machine itself. */
  secure: boolean;
  /** `'PushManager' in window`, with service workers and `Notification` beside it. */
  pushSupported: boolean;
  platform: Platform;
  /** Opened from the home screen (`navigator.standalone`, or `display-mode: standalone`). */
  standalone: boolean;
  /** `Notification.permission`; 'default' when the browser has no `Notification`. */
  permission: NotificationPermission;
}

/** Why this browser cannot be pushed at all, whatever the person taps. */
export type Blocker = 'insecure' | 'ios-home-screen' | 'ios-too-old' | 'unsupported' | 'denied';

export function blockerOf(f: BrowserFacts): Blocker | null {
  if (!f.secure) return 'insecure';
  // Safari on iOS offers the Push API only to an app opened from the home screen (16.4+).
  if (f.platform === 'ios' && !f.standalone) return 'ios-home-screen';
  if (!f.pushSupported) return f.platform === 'ios' ? 'ios-too-old' : 'unsupported';
  if (f.permission === 'denied') return 'denied';
  return null;
}

/** The section's state: what the browser allows, then what the agent holds. */
export type NotificationsState =
  | { kind: 'blocked'; blocker: Blocker }
  | { kind: 'loading' }
  /** `GET /api/push` failed: the agent's words, and a way to try again. */
  | { kind: 'load-failed'; message: string }
  | { kind: 'off' }
  | { kind: 'on'; settings: PushSettings };

export interface AgentView {
  subscribed: boolean;
  settings: PushSettings;
}

/**
 * On only when both ends agree: the agent holds a subscription for this device and the browser
 * still has one (`browserSubscribed` null when the browser could not be asked: the agent's word).
 */
export function notificationsState(facts: BrowserFacts, agent: AgentView | { error: string } | null, browserSubscribed: boolean | null): NotificationsState {
  const blocker = blockerOf(facts);
  if (blocker) return { kind: 'blocked', blocker };
  if (agent === null) return { kind: 'loading' };
  if ('error' in agent) return { kind: 'load-failed', message: agent.error };
  if (agent.subscribed && browserSubscribed !== false) return { kind: 'on', settings: agent.settings };
  return { kind: 'off' };
}

/** The words for a blocked browser: a headline, why, what to do, and a note where one helps. */
export interface BlockedText {
  title: string;
  why: string;
  todo: string;
  note: string | null;
}

export function blockedText(blocker: Blocker, platform: Platform): BlockedText {
  switch (blocker) {
    case 'insecure':
      return {
        title: 'Notifications need HTTPS',
        why: 'This page came over plain HTTP. Browsers allow notifications (and installing the app) only on a secure address: https://, or http://127.0.0.1 on the machine itself.',
        todo: 'Start pocketmux with a certificate or with --tailscale (see “Put it on your phone” in the README), then open its https:// address here.',
        note: null,
      };
    case 'ios-home-screen':
      return {
        title: 'Add pocketmux to your home screen first',
        why: 'On iPhone and iPad only apps on the home screen can receive notifications.',
        todo: 'Add pocketmux to your home screen (Share → Add to Home Screen), open it from there, then enable notifications.',
        note: 'The home-screen app keeps its own sign-in: pair it there once more, with a code from “Pair a new device” on this page.',
      };
    case 'ios-too-old':
      return {
        title: 'This iOS cannot receive notifications',
        why: 'Apps on the home screen receive web notifications from iOS 16.4 on.',
        todo: 'Update iOS, then open pocketmux from the home screen again.',
        note: null,
      };
    case 'unsupported':
      return {
        title: 'This browser cannot receive notifications',
        why: 'It offers no Push API here.',
        todo: 'Use Chrome, Edge or Firefox, or Safari on macOS 13 or later.',
        note: null,
      };
    case 'denied':
      return { title: 'Notifications are blocked for pocketmux', ...deniedSteps(platform) };
  }
}

function deniedSteps(platform: Platform): Pick<BlockedText, 'why' | 'todo' | 'note'> {
  switch (platform) {
    case 'ios':
      return {
        why: 'You said no when asked, and iOS will not ask again.',
        todo: 'Open the Settings app → Notifications → pocketmux, turn on Allow Notifications, then come back here.',
        note: null,
      };
    case 'android':
      return {
        why: 'You said no when asked, and the browser will not ask again.',
        todo: 'Tap the icon left of the address (or ⋮ → Settings → Site settings → Notifications), allow this site, then reload.',
        note: 'In the installed app: long-press its icon → App info → Notifications, and allow them.',
      };
    case 'desktop':
      return {
        why: 'You said no when asked, and the browser will not ask again.',
        todo: 'Click the icon left of the address bar (site information) → Notifications → Allow, then reload this page.',
        note: null,
      };
  }
}

/** The three choices, in the order the section lists them. */
export const PUSH_CHOICES: readonly { key: keyof PushSettings; label: string; detail: string }[] = [
  { key: 'approvals', label: 'Approvals and questions', detail: 'Permission prompts, questions and plans, with Approve and Deny buttons where the system shows them.' },
  { key: 'needsInput', label: 'Waiting in the terminal', detail: 'A tab where Claude waits on something only the terminal can answer.' },
  { key: 'review', label: 'Ready for review', detail: 'Claude finished its turn, with its last sentence.' },
];
