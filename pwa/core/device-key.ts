/**
 * This device's key: an ECDSA P-256 key pair made with WebCrypto when the browser pairs, its
 * private half not extractable (no script, ours included, can read it out), kept in IndexedDB
 * where the app and its service worker both find it. Every request to the agent carries a proof
 * signed with it (`protocol/device-proof.ts`), so the credential cookie, which the browser also
 * sends to any other server on the same host name, is worth nothing without this browser.
 *
 * No DOM: the service worker signs its notification answers with it too.
 */
import { formatProof, PROOF_SIGN_ALGORITHM, proofMessage } from '../../protocol/device-proof.js';

const DB_NAME = 'pocketmux-device';
const STORE = 'keys';
const RECORD = 'device';

/** Where the agent's clock is from ours, learned from its answers (`AGENT_TIME_HEADER`). */
let clockOffsetMs = 0;
let cached: Promise<CryptoKeyPair | null> | null = null;

/** Whether this browser can make a key: WebCrypto exists only in a secure context. */
export function canMakeDeviceKey(): boolean {
  return typeof globalThis.crypto?.subtle?.generateKey === 'function' && typeof globalThis.indexedDB !== 'undefined';
}

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB refused to open'));
  });
}

/** One request on the key store, in a transaction of its own. */
async function inKeyStore<T>(mode: IDBTransactionMode, use: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = use(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result as T);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB refused the key'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB refused the key'));
    });
  } finally {
    db.close();
  }
}

/** Keeps the key this browser paired with, in place of any earlier one (pairing makes it: `pairing/device-key-pairing.ts`). */
export async function keepDeviceKey(pair: CryptoKeyPair): Promise<void> {
  await inKeyStore('readwrite', (store) => store.put(pair, RECORD));
  cached = Promise.resolve(pair);
}

/** The kept key pair, or null when this browser has none (never paired, or a cookie-only device). */
export function deviceKeyPair(): Promise<CryptoKeyPair | null> {
  if (!canMakeDeviceKey()) return Promise.resolve(null);
  cached ??= inKeyStore<CryptoKeyPair | undefined>('readonly', (store) => store.get(RECORD)).then(
    (pair) => (pair?.privateKey instanceof CryptoKey ? pair : null),
    () => null,
  );
  return cached;
}

/** Notes the agent's clock from one of its answers. */
export function learnAgentTime(header: string | null): void {
  if (header === null || !/^\d{13}$/.test(header)) return;
  clockOffsetMs = Number(header) - Date.now();
}

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The proof for one request: `target` is what the browser sends as the request target (path
 * and query). Null when this browser holds no key: the request goes without, and a device that
 * needs one is refused and pairs again.
 */
export async function signProof(method: string, target: string): Promise<string | null> {
  const pair = await deviceKeyPair();
  if (!pair) return null;
  const time = Date.now() + clockOffsetMs;
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const message = new TextEncoder().encode(proofMessage(method, target, time, nonce));
  const signature = new Uint8Array(await crypto.subtle.sign(PROOF_SIGN_ALGORITHM, pair.privateKey, message));
  return formatProof({ time, nonce, signature: base64url(signature) });
}

/** The request target of a same-origin path, as the browser will send it (normalised, percent-encoded). */
export function requestTarget(path: string, origin: string): string {
  const url = new URL(path, origin);
  return `${url.pathname}${url.search}`;
}
