/**
 * The PWA file server on a folder of its own, over real HTTP: the cases the built PWA does
 * not hold (a copy older than its file, a FIFO, two releases whose files share a size and a
 * time). tests/integration/pwa-files.test.ts holds the real agent to the rest.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byteRange, pwaFiles, pwaRelativePath } from '../../agent/http/pwa-files.js';
import { decodedBody, getServed } from '../support/served-file.js';

describe('pwaRelativePath', () => {
  it.each([
    ['/', ''],
    ['/index.html', 'index.html'],
    ['/assets/index-abc.js?v=1#x', 'assets/index-abc.js'],
    ['/a%20b/c', 'a b/c'],
    ['/deep/link/', 'deep/link'],
  ])('%s → %s', (url, expected) => {
    expect(pwaRelativePath(url)).toBe(expected);
  });

  it.each(['/../x', '/a/../x', '/%2e%2e/x', '/.%2E/x', '/a%2f..%2fx', '/a%5cb', '/%00', '//x', '/a//b', '/.hidden', '/%ZZ', 'x', 'http://h/x', '*'])('refuses %s', (url) => {
    expect(pwaRelativePath(url)).toBeNull();
  });
});

describe('byteRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-1000', 100, { start: 0, end: 99 }],
    ['bytes=50-5000', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=9-0', 100, null],
    ['bytes=0-1,5-6', 100, null],
    ['bytes=-', 100, null],
    ['items=0-1', 100, null],
    [undefined, 100, null],
  ] as const)('%s of %i bytes → %j', (header, size, expected) => {
    expect(byteRange(header, size)).toEqual(expected);
  });
});

describe('pwaFiles', () => {
  let dir = '';
  let server: Server;
  let url = '';
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pocketmux-pwa-files-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>shell</title>');
    const serve = pwaFiles(dir);
    server = createServer((req, res) =>
      serve(req, res, (err) => {
        res.statusCode = err ? 500 : 418;
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('never sends a compressed copy older than its file', async () => {
    const script = 'export const fresh = 1;\n'.repeat(50);
    writeFileSync(join(dir, 'theme.js.br'), brotliCompressSync('export const stale = 1;\n'.repeat(50)));
    utimesSync(join(dir, 'theme.js.br'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    writeFileSync(join(dir, 'theme.js'), script);
    const res = await getServed(url, '/theme.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body.toString()).toBe(script);
  });

  it('tags two releases of a file apart when npm gave both the same size and time', async () => {
    const npmTime = new Date('1985-10-26T08:15:00Z');
    const first = '<!doctype html><script src="/assets/index-AAAAAAAA.js"></script>';
    const second = '<!doctype html><script src="/assets/index-BBBBBBBB.js"></script>';
    writeFileSync(join(dir, 'index.html'), first);
    utimesSync(join(dir, 'index.html'), npmTime, npmTime);
    const before = await getServed(url, '/index.html');
    writeFileSync(join(dir, 'index.html'), second);
    utimesSync(join(dir, 'index.html'), npmTime, npmTime);
    const after = await getServed(url, '/index.html', { 'if-none-match': before.headers.etag as string });
    expect(after.status).toBe(200);
    expect(after.body.toString()).toBe(second);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('does not hang on a FIFO, and sends the app shell in its place', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe.js')]);
    const res = await getServed(url, '/pipe.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(decodedBody(res).toString()).toBe('<!doctype html><title>shell</title>');
  });

  it('leaves other methods and /api to the routes after it', async () => {
    expect((await getServed(url, '/index.html', {}, 'POST')).status).toBe(418);
    expect((await getServed(url, '/api/session')).status).toBe(418);
  });

  it('says 404 when there is no app shell to send', async () => {
    rmSync(join(dir, 'index.html'));
    expect((await getServed(url, '/some/link')).status).toBe(404);
  });
});
