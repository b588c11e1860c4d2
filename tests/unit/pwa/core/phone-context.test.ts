import { describe, expect, it } from 'vitest';
import { memoryStorage } from '../../../support/memory-storage.js';
import { choosePhoneContext, PHONE_WIDTH_QUERY, phoneContext, phoneContextChosen } from '../../../../pwa/core/phone-context.js';


describe('telling Claude a prompt came from a phone', () => {
  it('marks a prompt only when this device chose it and its screen is a phone’s', () => {
    const storage = memoryStorage();
    const phone = { storage, matches: (query: string) => query === PHONE_WIDTH_QUERY };
    const desktop = { storage, matches: () => false };
    expect(phoneContext(phone)).toEqual({});
    choosePhoneContext(true, phone);
    expect(phoneContextChosen(phone)).toBe(true);
    expect(phoneContext(phone)).toEqual({ phone: true });
    expect(phoneContext(desktop)).toEqual({});
    choosePhoneContext(false, phone);
    expect(phoneContext(phone)).toEqual({});
  });

  it('is off where storage is missing or refuses', () => {
    const refusing = {
      storage: {
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => {
          throw new Error('denied');
        },
        removeItem: () => undefined,
      },
      matches: () => true,
    };
    choosePhoneContext(true, refusing);
    expect(phoneContext(refusing)).toEqual({});
    expect(phoneContext({ storage: null, matches: () => true })).toEqual({});
  });
});
