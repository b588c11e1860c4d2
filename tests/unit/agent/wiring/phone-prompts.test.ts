import { describe, expect, it } from 'vitest';
import { PhonePrompts } from '../../../../agent/wiring/phone-prompts.js';

describe('PhonePrompts', () => {
  it('matches the prompt a phone sent to its session once, trimmed, and no other prompt or session', () => {
    const prompts = new PhonePrompts();
    prompts.note('tb-1', '  fix the build \n');
    expect(prompts.take('tb-2', 'fix the build')).toBe(false);
    expect(prompts.take('tb-1', 'fix the tests')).toBe(false);
    expect(prompts.take('tb-1', 'fix the build')).toBe(true);
    expect(prompts.take('tb-1', 'fix the build')).toBe(false);
  });

  it('forgets a note not taken in time, past its per-session count, and the session noted least recently', () => {
    let now = 0;
    const prompts = new PhonePrompts({ perSession: 2, sessions: 2, ttlMs: 1_000 }, () => now);
    prompts.note('tb-1', 'old');
    now = 1_001;
    expect(prompts.take('tb-1', 'old')).toBe(false);
    prompts.note('tb-1', 'a');
    prompts.note('tb-1', 'b');
    prompts.note('tb-1', 'c');
    expect(prompts.take('tb-1', 'a')).toBe(false);
    expect(prompts.take('tb-1', 'b')).toBe(true);
    prompts.note('tb-2', 'two');
    prompts.note('tb-3', 'three');
    expect(prompts.take('tb-1', 'c')).toBe(false);
    expect(prompts.take('tb-2', 'two')).toBe(true);
    expect(prompts.take('tb-3', 'three')).toBe(true);
  });
});
