/**
 * Which Chromium the browser tests will use, known without starting one (browser.ts starts
 * it): apart from browser.ts, so the run's reporter can say it once without loading a browser.
 */
import { existsSync } from 'node:fs';

/** Debian's chromium package: the real binary, then its wrapper script. */
export const SYSTEM_CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

/** The POCKETMUX_CHROMIUM value that picks the packaged Chromium over the system's. */
export const PACKAGED = 'packaged';

/**
 * Whether the Chromium the tests will use shows notifications: not the packaged headless
 * shell. The notification suites are skipped where it does not.
 */
export function browserShowsNotifications(): boolean {
  const fromEnv = process.env.POCKETMUX_CHROMIUM;
  if (fromEnv === PACKAGED) return false;
  return Boolean(fromEnv) || SYSTEM_CHROMIUM.some((p) => existsSync(p));
}

/**
 * What a run that used the packaged Chromium for want of the system's should tell, once: that
 * the tests of notifications were skipped, and how to run them. Nothing where the packaged one
 * was asked for (POCKETMUX_CHROMIUM=packaged) or the system's was there.
 */
export function packagedChromiumNotice(): string | undefined {
  if (process.env.POCKETMUX_CHROMIUM || browserShowsNotifications()) return undefined;
  return `No Chromium at ${SYSTEM_CHROMIUM.join(' or ')}: the browser tests ran with @sparticuz/chromium, a headless shell without notifications, and skipped the tests of notifications (install chromium to run them).`;
}
