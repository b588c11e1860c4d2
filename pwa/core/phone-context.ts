/**
 * "Tell Claude when I write from my phone": a choice of this device, kept in localStorage. When
 * it is on and the screen is a phone's, a prompt goes with `phone: true`, and the agent has
 * Claude hear, with that prompt only, that its answer is read on a small screen.
 */

export const PHONE_CONTEXT_STORAGE_KEY = 'pocketmux.phone-context';

/** A screen this narrow is a phone's, whatever the device says it is. */
export const PHONE_WIDTH_QUERY = '(max-width: 600px)';

interface Environment {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  matches: (query: string) => boolean;
}

function browser(): Environment {
  return {
    storage: globalThis.localStorage ?? null,
    matches: (query) => globalThis.matchMedia?.(query).matches ?? false,
  };
}

export function phoneContextChosen(env: Environment = browser()): boolean {
  try {
    return env.storage?.getItem(PHONE_CONTEXT_STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

export function choosePhoneContext(on: boolean, env: Environment = browser()): void {
  try {
    if (on) env.storage?.setItem(PHONE_CONTEXT_STORAGE_KEY, 'on');
    else env.storage?.removeItem(PHONE_CONTEXT_STORAGE_KEY);
  } catch {
    // Storage refused (a private window): the choice lasts as long as nothing reads it again.
  }
}

/** What a prompt sent now carries: `{phone: true}` when chosen on a phone's screen, else nothing. */
export function phoneContext(env: Environment = browser()): { phone?: true } {
  return phoneContextChosen(env) && env.matches(PHONE_WIDTH_QUERY) ? { phone: true } : {};
}
