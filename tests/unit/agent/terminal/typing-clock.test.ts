import { describe, expect, it } from 'vitest';
import { TYPING_MS, TypingClock } from '../../../../agent/terminal/typing-clock.js';

describe('TypingClock', () => {
  it('says typing for TYPING_MS after each keystroke, and not before the first', () => {
    let now = 1_000;
    const clock = new TypingClock(() => now);
    expect(clock.typing()).toBe(false);
    clock.keystroke();
    now += TYPING_MS - 1;
    expect(clock.typing()).toBe(true);
    now += 1;
    expect(clock.typing()).toBe(false);
    // A key pressed later starts the time again.
    clock.keystroke();
    now += 10;
    expect(clock.typing()).toBe(true);
  });
});
