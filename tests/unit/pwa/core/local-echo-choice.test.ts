import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../support/memory-storage.js';
import { chooseLocalEcho, LOCAL_ECHO_STORAGE_KEY, localEchoChosen } from '../../../../pwa/core/local-echo-choice.js';


describe('the local echo choice of this device', () => {
  it('is on until turned off, and on again when chosen', () => {
    const storage = memoryStorage();
    expect(localEchoChosen(storage)).toBe(true);
    chooseLocalEcho(false, storage);
    expect(storage.items.get(LOCAL_ECHO_STORAGE_KEY)).toBe('off');
    expect(localEchoChosen(storage)).toBe(false);
    chooseLocalEcho(true, storage);
    expect(storage.items.size).toBe(0);
    expect(localEchoChosen(storage)).toBe(true);
  });

  it('stays on where storage is missing or refuses, and choosing there does not throw', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(localEchoChosen(refusing)).toBe(true);
    expect(localEchoChosen(null)).toBe(true);
    expect(() => chooseLocalEcho(false, refusing)).not.toThrow();
  });
});
