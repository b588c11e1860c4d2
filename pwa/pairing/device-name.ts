import { unsafeTextProblem } from '../../protocol/safe-text.js';

/**
 * A first guess at a name for this device, like "Pixel 8 · Chrome" or "iPhone · Safari",
 * from the User-Agent. It only prefills a field the person can change, so a rough guess
 * beats a clever parser: unknown parts fall back to generic words.
 */
export function guessDeviceName(ua: string, touchPoints = 0, installed = false): string {
  // An installed app keeps its own storage apart from the browser's (iOS does), so it is a
  // device of its own and deserves a name that tells it from the browser beside it.
  return `${platformOf(ua, touchPoints)} · ${installed ? 'Installed app' : browserOf(ua)}`;
}

/** The guess for the browser this page runs in. */
export function guessThisDevice(): string {
  const installed = matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
  return guessDeviceName(navigator.userAgent, navigator.maxTouchPoints, installed);
}

function platformOf(ua: string, touchPoints: number): string {
  if (/iPhone/.test(ua)) return 'iPhone';
  if (/iPad/.test(ua)) return 'iPad';
  // iPadOS asks for desktop pages and says "Macintosh"; only the touch screen gives it away.
  if (/Macintosh/.test(ua)) return touchPoints > 1 ? 'iPad' : 'Mac';
  if (/Android/.test(ua)) return androidModel(ua) ?? 'Android';
  if (/Windows/.test(ua)) return 'Windows';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Linux|X11/.test(ua)) return 'Linux';
  return 'Device';
}

/** "(Linux; Android 14; Pixel 8)" → "Pixel 8"; Chrome's reduced UA says only "K". */
function androidModel(ua: string): string | null {
  const m = /Android[^;)]*;\s*([^;)]+)/.exec(ua);
  const model = (m?.[1] ?? '').replace(/\s+Build\/.*$/, '').trim();
  if (model.length < 2 || /^(wv|mobile|tablet|[a-z]{2}[-_][a-z]{2})$/i.test(model)) return null;
  // The name must pass the agent's DisplayName; a model it would refuse is no guess at all.
  if (unsafeTextProblem(model)) return null;
  return model.slice(0, 40);
}

function browserOf(ua: string): string {
  if (/EdgA?\/|EdgiOS\//.test(ua)) return 'Edge';
  if (/OPR\/|OPiOS\//.test(ua)) return 'Opera';
  if (/SamsungBrowser\//.test(ua)) return 'Samsung Internet';
  if (/Firefox\/|FxiOS\//.test(ua)) return 'Firefox';
  if (/Chrome\/|CriOS\/|Chromium\//.test(ua)) return 'Chrome';
  // iOS web views and Safari itself: WebKit with no other browser's mark.
  if (/Safari\/|AppleWebKit\//.test(ua)) return 'Safari';
  return 'Browser';
}
