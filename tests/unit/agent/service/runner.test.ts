import { describe, expect, it } from 'vitest';
import { failureReason, shellWords } from '../../../../agent/service/runner.js';

describe('messages', () => {
  it('quotes shell words only when needed, and finds the reason in a failed command', () => {
    expect(shellWords(['systemctl', '--user', 'a b', "it's"])).toBe(`systemctl --user 'a b' 'it'\\''s'`);
    expect(failureReason({ code: 1, stdout: '', stderr: 'Removed "/x".\nFailed to connect to bus: No medium found\n' })).toBe('Failed to connect to bus: No medium found');
    expect(failureReason({ code: 5, stdout: '', stderr: 'Bootstrap failed: 5: Input/output error\nTry re-running the command as root for richer errors.\n' })).toBe(
      'Bootstrap failed: 5: Input/output error',
    );
    expect(failureReason({ code: 2, stdout: '', stderr: '' })).toBe('exit code 2');
  });
});
