import { createSecureContext } from 'node:tls';
import { assertPrivate } from './permissions.js';
import { readRegularFileSync } from '../util/regular-file.js';

export class TlsError extends Error {}

/** A certificate chain or a key is a few KB: the bound only keeps a wrong path from swamping the agent. */
export const PEM_MAX_BYTES = 1024 * 1024;

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
    const tls = { cert: readRegularFileSync(files.certFile, { maxBytes: PEM_MAX_BYTES }), key: readRegularFileSync(files.keyFile, { maxBytes: PEM_MAX_BYTES }) };
    createSecureContext(tls);
    return tls;
  } catch (err) {
    throw new TlsError(`cannot read the TLS certificate or key: ${(err as Error).message}`);
  }
}
