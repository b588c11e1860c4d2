import { describe, expect, it } from 'vitest';
import { machineKey, splitMachineKey } from '../../../protocol/machine-key.js';

describe('machine keys', () => {
  it('puts a linked machine’s id before its own key, and takes it off again', () => {
    expect(machineKey('mc-k3j9x2ab', 'tab-0a1b2c3d')).toBe('mc-k3j9x2ab~tab-0a1b2c3d');
    expect(splitMachineKey('mc-k3j9x2ab~tab-0a1b2c3d')).toEqual({ machineId: 'mc-k3j9x2ab', key: 'tab-0a1b2c3d' });
    expect(splitMachineKey('mc-k3j9x2ab~outside-3f1c2a9e')).toEqual({ machineId: 'mc-k3j9x2ab', key: 'outside-3f1c2a9e' });
    // A key of the machine's own that carries another machine's: split once, at the first.
    expect(splitMachineKey('mc-a~mc-b~tab-1')).toEqual({ machineId: 'mc-a', key: 'mc-b~tab-1' });
  });

  it('reads a key of the home agent’s own, or anything malformed, as no machine’s', () => {
    for (const key of ['tab-0a1b2c3d', 'outside-3f1c2a9e', 'ap-1', '~tab-1', 'mc-~tab-1', 'mc-ABC~tab-1', 'mc-abc~', 'xmc-abc~tab-1', 'mc-abc']) {
      expect(splitMachineKey(key)).toBeNull();
    }
  });
});
