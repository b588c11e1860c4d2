import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { assertPrivate } from '../store/permissions.js';

export class TlsError extends Error {}

/** A PEM certificate and its key, read and checked to work together. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

/**
 * The certificate and key to serve HTTPS with, or null for plain HTTP. The key must be
 * readable by the user alone; a key that does not match or a damaged PEM fails here, at
 * start, with a clear message rather than at the first handshake.
 */
export function loadTls(files: { certFile: string; keyFile: string } | null): TlsMaterial | null {
  if (!files) return null;
  assertPrivate([{ path: files.keyFile, kind: 'file' }]);
  try {
    const tls = { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
    createSecureContext(tls);
    return tls;
  } catch (err) {
    throw new TlsError(`cannot read the TLS certificate or key: ${(err as Error).message}`);
  }
}
