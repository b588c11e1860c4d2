import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepPort, keptPort, parsePort } from '../../../../agent/store/port-file.js';

describe('port files', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pm-port-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a port as written, and nothing else as one', () => {
    expect(parsePort('8765\n')).toBe(8765);
    expect(parsePort(' 1 ')).toBe(1);
    expect(parsePort('65535')).toBe(65_535);
    for (const bad of ['', '0', '65536', '99999', '-1', '80.5', '1e3', '0x50', '80 81', '８０', '123456']) expect(parsePort(bad), bad).toBeNull();
  });

  it('keeps a port across stops, and has none for a file missing or damaged', () => {
    const path = join(dir, 'local-port');
    expect(keptPort(path)).toBeNull();
    keepPort(path, 40_123);
    expect(keptPort(path)).toBe(40_123);
    writeFileSync(path, 'not a port');
    expect(keptPort(path)).toBeNull();
    expect(keptPort(dir)).toBeNull();
  });
});
