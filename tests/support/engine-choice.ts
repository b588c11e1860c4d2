/**
 * Which engines the cross-engine browser suites run in, known without starting either
 * (engines.ts starts them): apart from it, so the run's reporter can say it once.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export type EngineName = 'chromium' | 'webkit';

export const WEBKIT_DRIVER = 'WebKitWebDriver';
export const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

function onPath(bin: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, bin)));
}

/** Whether WebKit can be driven here: its WebDriver server, MiniBrowser and Xvfb installed, and not turned off. */
export function webkitAvailable(): boolean {
  return process.env.POCKETMUX_WEBKIT !== 'off' && onPath(WEBKIT_DRIVER) && onPath('Xvfb') && existsSync(MINIBROWSER);
}

/** The engines the cross-engine suites run in here: Chromium always, WebKit where it can be driven. */
export const ENGINES: readonly EngineName[] = webkitAvailable() ? ['chromium', 'webkit'] : ['chromium'];

/**
 * What a run without WebKit says once: that the WebKit half of the cross-engine suites did not
 * run, and how to run it. Nothing where it was turned off on purpose (POCKETMUX_WEBKIT=off).
 */
export function webkitNotice(): string | undefined {
  if (process.env.POCKETMUX_WEBKIT === 'off' || webkitAvailable()) return undefined;
  return 'No WebKitWebDriver, Xvfb or MiniBrowser here: the browser suites ran in Chromium only (Debian: apt-get install webkit2gtk-driver xvfb to run them in WebKit too).';
}

