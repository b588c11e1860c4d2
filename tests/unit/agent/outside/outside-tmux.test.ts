import { describe, expect, it } from 'vitest';
import { outsideCommands } from '../../../../agent/outside/outside-tmux.js';
import { HISTORY_LIMIT_LINES } from '../../../../agent/tmux/config-file.js';

describe('the capture commands', () => {
  it("read an outside pane on the person's server, no further back than our own", () => {
    const target = { socketPath: '/tmp/tmux-1000/default', serverPid: 4242, pane: '%7' };
    expect(outsideCommands.captureHistory(target, HISTORY_LIMIT_LINES)).toEqual([
      '-u',
      '-S',
      '/tmp/tmux-1000/default',
      'capture-pane',
      '-p',
      '-e',
      '-J',
      '-S',
      '-50000',
      '-t',
      '%7',
    ]);
  });
});
