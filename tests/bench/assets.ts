/**
 * The PWA's bytes as the agent sends them: the first screen's scripts, the terminal chunk
 * and the service worker, asked for as a browser asks (`br, gzip`), as a client with gzip
 * alone, and with no Accept-Encoding at all. Each body is checked to decode to the file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/agent.js';
import { decodedBody, firstScreenScripts, getServed } from '../support/served-file.js';

const PWA = join(REPO_ROOT, 'dist', 'pwa');

/** Accept-Encoding as sent (none for identity), and the coding each must get. */
const REQUESTS = [
  { coding: 'br', headers: { 'accept-encoding': 'br, gzip' } },
  { coding: 'gzip', headers: { 'accept-encoding': 'gzip' } },
  { coding: 'identity', headers: {} },
] as const;

export type Coding = (typeof REQUESTS)[number]['coding'];
export type BytesSent = Record<Coding, number>;

export interface AssetsBenchResult {
  firstScreen: { files: string[] } & BytesSent;
  mainScript: { file: string } & BytesSent;
  terminalChunk: { file: string } & BytesSent;
  serviceWorker: BytesSent;
}

async function bytesSent(baseUrl: string, path: string): Promise<BytesSent> {
  const file = readFileSync(join(PWA, path.replace(/^\//, '')));
  const sent = { br: 0, gzip: 0, identity: 0 };
  for (const { coding, headers } of REQUESTS) {
    const res = await getServed(baseUrl, path, headers);
    const got = res.headers['content-encoding'] ?? 'identity';
    if (res.status !== 200 || got !== coding) throw new Error(`${path}: asked for ${coding}, got ${res.status} ${got}`);
    if (!decodedBody(res).equals(file)) throw new Error(`${path} as ${coding} does not decode to the file`);
    sent[coding] = res.body.length;
  }
  return sent;
}

export async function assetsBench(baseUrl: string): Promise<AssetsBenchResult> {
  const html = decodedBody(await getServed(baseUrl, '/', { 'accept-encoding': 'br, gzip' })).toString('utf8');
  const files = firstScreenScripts(html);
  const firstScreen = { files, br: 0, gzip: 0, identity: 0 };
  let mainScript: AssetsBenchResult['mainScript'] | undefined;
  for (const file of files) {
    const sent = await bytesSent(baseUrl, file);
    for (const { coding } of REQUESTS) firstScreen[coding] += sent[coding];
    if (file.startsWith('/assets/index-')) mainScript = { file, ...sent };
  }
  if (!mainScript) throw new Error('index.html loads no /assets/index-*.js');
  const terminal = readdirSync(join(PWA, 'assets')).find((f) => f.startsWith('terminal-session-') && f.endsWith('.js'));
  if (!terminal) throw new Error('no terminal-session-*.js in dist/pwa/assets');
  const terminalFile = `/assets/${terminal}`;
  return {
    firstScreen,
    mainScript,
    terminalChunk: { file: terminalFile, ...(await bytesSent(baseUrl, terminalFile)) },
    serviceWorker: await bytesSent(baseUrl, '/sw.js'),
  };
}

export const ASSETS_HEADING = 'Bytes on the wire';

export function assetsSection(r: AssetsBenchResult, runLine: string): string {
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  const row = (what: string, s: BytesSent) =>
    `| ${what} | **${kb(s.br)}** (${((s.br / s.identity) * 100).toFixed(0)}%) | ${kb(s.gzip)} (${((s.gzip / s.identity) * 100).toFixed(0)}%) | ${kb(s.identity)} |`;
  return `## ${ASSETS_HEADING}

${runLine}

| what the agent sends | \`Accept-Encoding: br, gzip\` (Brotli) | \`Accept-Encoding: gzip\` | no Accept-Encoding (as it is) |
| --- | --- | --- | --- |
${row(`the first screen: the ${r.firstScreen.files.length} scripts index.html runs and preloads`, r.firstScreen)}
${row(`of which the main script, \`${r.mainScript.file.replace(/-[^-/]+\.js$/, '-*.js')}\``, r.mainScript)}
${row(`the terminal chunk, \`${r.terminalChunk.file.replace(/-[^-/]+\.js$/, '-*.js')}\`, loaded when a terminal opens`, r.terminalChunk)}
${row('the service worker, `sw.js`', r.serviceWorker)}

How it is measured: each file is asked for over raw node:http from an agent of its own, with
exactly the Accept-Encoding shown, and the body's length is counted as it arrives, before
decoding (headers not counted); each body is checked to decode to the built file byte for
byte. The build writes the compressed copies beside each file (\`build/precompress.ts\`:
Brotli at quality 11, gzip at level 9); the agent sends them as they are. The first screen's
budget (\`tests/integration/first-screen-size.test.ts\`) is held to the Brotli column.`;
}
