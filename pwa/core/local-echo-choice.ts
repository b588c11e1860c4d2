/**
 * "Show typing at once" (predictive local echo, pwa/terminal/local-echo.ts): a choice of this
 * device, kept in localStorage, on unless turned off.
 */

export const LOCAL_ECHO_STORAGE_KEY = 'pocketmux.local-echo';

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;

const browserStorage = (): Store => globalThis.localStorage ?? null;

export function localEchoChosen(storage: Store = browserStorage()): boolean {
  try {
    return storage?.getItem(LOCAL_ECHO_STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function chooseLocalEcho(on: boolean, storage: Store = browserStorage()): void {
  try {
    if (on) storage?.removeItem(LOCAL_ECHO_STORAGE_KEY);
    else storage?.setItem(LOCAL_ECHO_STORAGE_KEY, 'off');
  } catch {
    // Storage refused (a private window): the choice lasts as long as nothing reads it again.
  }
}
