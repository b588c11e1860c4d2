/**
 * A file of the agent's as it comes over the wire: raw node:http, so the request carries
 * exactly the headers given (fetch would add its own Accept-Encoding and decode the body).
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

export interface ServedFile {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent, still encoded. */
  body: Buffer;
}

export function getServed(baseUrl: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<ServedFile> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body decoded by its Content-Encoding. */
export function decodedBody(file: ServedFile): Buffer {
  const coding = file.headers['content-encoding'];
  if (coding === undefined) return file.body;
  if (coding === 'br') return brotliDecompressSync(file.body);
  if (coding === 'gzip') return gunzipSync(file.body);
  throw new Error(`unexpected Content-Encoding ${String(coding)}`);
}

/** The scripts the built index.html runs and preloads: what the first screen loads. */
export function firstScreenScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)].map((m) => m[1] as string);
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((m) => m[1] as string);
  return [...new Set([...scripts, ...preloads])];
}
