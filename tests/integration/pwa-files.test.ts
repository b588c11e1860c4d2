/**
 * The built PWA as the agent serves it: each text file in the Brotli or gzip copy the build
 * wrote when the client accepts one, decoding to the very bytes of the file; hashed assets
 * cached for good and the rest revalidated; nothing outside the PWA's folder, and no
 * compressed copy asked for by name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHandle, cleanupAgents, REPO_ROOT, startAgent } from '../support/agent.js';
import { decodedBody, getServed } from '../support/served-file.js';

const PWA = join(REPO_ROOT, 'dist', 'pwa');
const IMMUTABLE = 'public, max-age=31536000, immutable';

let agent: AgentHandle;
beforeAll(async () => {
  agent = await startAgent();
});
afterAll(cleanupAgents);

const served = (path: string, headers: Record<string, string> = {}, method = 'GET') => getServed(agent.url, path, headers, method);
const onDisk = (path: string) => readFileSync(join(PWA, path.replace(/^\//, '')));

const assets = readdirSync(join(PWA, 'assets'));
const asset = (prefix: string, ext = '.js') => {
  const name = assets.find((f) => f.startsWith(prefix) && f.endsWith(ext));
  if (!name) throw new Error(`no ${prefix}*${ext} in dist/pwa/assets: build first`);
  return `/assets/${name}`;
};

/** Text files of every kind the PWA has, hashed and not. */
const TEXT_FILES = [
  '/index.html',
  asset('index-'),
  asset('terminal-session-'),
  asset('index-', '.css'),
  '/sw.js',
  '/manifest.webmanifest',
  '/theme-boot.js',
  '/icon.svg',
];

/** Accept-Encoding as sent, and the coding it must get. */
const NEGOTIATIONS: [string | undefined, 'br' | 'gzip' | 'identity' | 406][] = [
  ['br, gzip', 'br'],
  ['gzip, deflate, br, zstd', 'br'],
  ['gzip', 'gzip'],
  ['x-gzip', 'gzip'],
  ['GZIP;Q=0.5', 'gzip'],
  ['br;q=0.5, gzip', 'gzip'],
  ['br;q=0, gzip;q=0.1', 'gzip'],
  ['br;q=0, gzip;q=0', 'identity'],
  ['deflate, zstd', 'identity'],
  [undefined, 'identity'],
  ['', 'identity'],
  ['identity', 'identity'],
  ['*', 'br'],
  ['*;q=0, gzip', 'gzip'],
  ['br;q=2, gzip', 'gzip'],
  ['br, identity;q=0', 'br'],
  ['identity;q=0', 406],
  ['*;q=0', 406],
];

describe('the PWA served by the agent', () => {
  it('sends each text file compressed as the client asks, decoding to the file byte for byte', async () => {
    for (const path of TEXT_FILES) {
      const file = onDisk(path);
      const tags = new Map<string, string>();
      for (const [acceptEncoding, expected] of NEGOTIATIONS) {
        const what = `${path} with Accept-Encoding: ${acceptEncoding ?? '(none)'}`;
        const res = await served(path, acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });
        expect(res.headers.vary, what).toBe('Accept-Encoding');
        if (expected === 406) {
          expect(res.status, what).toBe(406);
          continue;
        }
        expect(res.status, what).toBe(200);
        expect(res.headers['content-encoding'], what).toBe(expected === 'identity' ? undefined : expected);
        expect(Number(res.headers['content-length']), what).toBe(res.body.length);
        expect(res.headers['content-type'], what).toMatch(/^(text\/html|text\/javascript|text\/css|application\/manifest\+json|image\/svg\+xml)/);
        expect(decodedBody(res).equals(file), what).toBe(true);
        if (expected !== 'identity') expect(res.body.length, what).toBeLessThan(file.length);
        const tag = res.headers.etag as string;
        expect(tag, what).toMatch(/^"[^"]+"$/);
        if (tags.has(expected)) expect(tag, what).toBe(tags.get(expected));
        tags.set(expected, tag);
      }
      // One tag per coding: a cache never mistakes one copy for another.
      expect(new Set(tags.values()).size, path).toBe(3);
    }
  });

  it('caches content-hashed assets for good and has everything else revalidated', async () => {
    for (const path of TEXT_FILES) {
      for (const acceptEncoding of ['br', 'gzip', 'identity']) {
        const res = await served(path, { 'accept-encoding': acceptEncoding });
        expect(res.headers['cache-control'], `${path} ${acceptEncoding}`).toBe(path.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
      }
    }
    for (const path of ['/', '/icon-192.png', '/some/deep/link']) {
      expect((await served(path, { 'accept-encoding': 'br, gzip' })).headers['cache-control'], path).toBe('no-cache');
    }
  });

  it('sends the app shell, compressed, for the app paths', async () => {
    const shell = onDisk('/index.html');
    for (const path of ['/', '/workspaces/x/tabs/y', '/some/deep/link/', '/a?b=c']) {
      const res = await served(path, { 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBe('br');
      expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(decodedBody(res).equals(shell), path).toBe(true);
    }
  });

  it('sends images as they are, whatever the client accepts', async () => {
    const res = await served('/icon-192.png', { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.body.equals(onDisk('/icon-192.png'))).toBe(true);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const path of [asset('index-'), '/sw.js', '/']) {
      for (const acceptEncoding of ['br', 'gzip', 'identity']) {
        const get = await served(path, { 'accept-encoding': acceptEncoding });
        const head = await served(path, { 'accept-encoding': acceptEncoding }, 'HEAD');
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        for (const h of ['content-length', 'content-type', 'content-encoding', 'etag', 'vary', 'cache-control']) {
          expect(head.headers[h], `${path} ${acceptEncoding} ${h}`).toBe(get.headers[h]);
        }
      }
    }
  });

  it('revalidates each copy by its own ETag', async () => {
    const path = '/sw.js';
    const br = await served(path, { 'accept-encoding': 'br' });
    const gzip = await served(path, { 'accept-encoding': 'gzip' });
    const again = await served(path, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers['cache-control']).toBe('no-cache');
    // The gzip copy's tag does not validate the Brotli copy.
    const other = await served(path, { 'accept-encoding': 'br', 'if-none-match': gzip.headers.etag as string });
    expect(other.status).toBe(200);
    expect(decodedBody(other).equals(onDisk(path))).toBe(true);
  });

  it('serves byte ranges of the file as it is, and a compressed copy only whole', async () => {
    const path = asset('terminal-session-');
    const file = onDisk(path);
    const part = await served(path, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${file.length}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.body.equals(file.subarray(100, 200))).toBe(true);
    const tail = await served(path, { range: 'bytes=-10', 'accept-encoding': 'identity' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(file.subarray(file.length - 10))).toBe(true);
    const beyond = await served(path, { range: `bytes=${file.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${file.length}`);

    const compressed = await served(path, { range: 'bytes=100-199', 'accept-encoding': 'br' });
    expect(compressed.status).toBe(200);
    expect(compressed.headers['content-range']).toBeUndefined();
    expect(decodedBody(compressed).equals(file)).toBe(true);

    // A range for another copy than the one the client holds: the whole file.
    const stale = await served(path, { range: 'bytes=100-199', 'if-range': '"not-this-copy"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(file)).toBe(true);
  });

  it('never sends a compressed copy asked for by name', async () => {
    const script = asset('index-');
    for (const path of [`${script}.br`, `${script}.gz`, '/index.html.br', '/index.html.gz', '/sw.js.br', `${script}.BR`]) {
      for (const acceptEncoding of [undefined, 'br, gzip']) {
        const res = await served(path, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
        expect(res.status, path).toBe(404);
        expect(res.headers['content-encoding'], path).toBeUndefined();
        expect(res.headers['content-type'], path).toBe('text/plain; charset=utf-8');
      }
    }
  });

  it('answers a missing asset with 404, not the app shell', async () => {
    const res = await served('/assets/index-gone1234.js', { 'accept-encoding': 'br' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('sends nothing from outside its folder, however the path is spelled', async () => {
    const shell = onDisk('/index.html');
    const outside = [readFileSync(join(REPO_ROOT, 'package.json')), readFileSync(join(REPO_ROOT, 'dist', 'agent', 'agent.js'))];
    const paths = [
      '/../package.json',
      '/../../package.json',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2f..%2fpackage.json',
      '/assets/%2E%2E/%2E%2E/agent/agent.js',
      '/..%2fagent%2fagent.js',
      '/..%5cagent%5cagent.js',
      '/.%2e/agent/agent.js',
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      '/index.html%00.png',
      '/%ZZ',
      '/.vite/manifest.json',
    ];
    for (const path of paths) {
      for (const acceptEncoding of [undefined, 'br, gzip']) {
        const res = await served(path, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
        const body = res.status === 200 ? decodedBody(res) : res.body;
        for (const file of outside) expect(body.equals(file), path).toBe(false);
        expect(body.includes('"name": "pocketmux"'), path).toBe(false);
        expect(body.includes('root:'), path).toBe(false);
        // Either refused or the app shell, which every unknown path outside /assets/ gets.
        if (res.status === 200) expect(body.equals(shell), path).toBe(true);
        else expect(res.status, path).toBe(404);
      }
    }
  });

});
