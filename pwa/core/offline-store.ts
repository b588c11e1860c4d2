/**
 * The offline store: one IndexedDB database per browser profile, holding the last-known
 * lists (one record, replaced on each save) and the timelines of the last Claude tabs seen
 * (`OFFLINE_LIMITS.timelines`, the oldest deleted first). Written through the raw API: a
 * wrapper library would add bytes for two stores and a handful of calls.
 *
 * Every operation runs in turn, so clearing (when this device loses its access) comes after
 * any write already started and before any later one, and nothing is written after it until
 * the app has access again (`allowSaves`).
 */
import {
  OFFLINE_LIMITS,
  parseSavedTimeline,
  parseSnapshot,
  type SavedTimeline,
  type SessionLists,
  type SessionsSnapshot,
  snapshotRecord,
} from './offline-snapshot.js';

const DB_NAME = 'pocketmux-offline';
/** The database's own version: which stores and indexes it has (records carry theirs). */
const DB_VERSION = 1;
const LISTS = 'lists';
const TIMELINES = 'timelines';
const SNAPSHOT_KEY = 'snapshot';
const BY_SAVED_AT = 'savedAt';

let connection: Promise<IDBDatabase | null> | null = null;
let queue: Promise<unknown> = Promise.resolve();
let savesAllowed = true;

function run<T>(op: () => Promise<T>): Promise<T> {
  const next = queue.then(op, op);
  queue = next.catch(() => undefined);
  return next;
}

function done(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

/**
 * The database, opened once; made when `create`, else null while it does not exist (reading
 * on a device that never saved anything leaves no empty database behind). Null too where
 * IndexedDB is missing or refuses (some private windows): the app then works without it.
 */
function open(create: boolean): Promise<IDBDatabase | null> {
  if (connection) return connection;
  const opening = new Promise<IDBDatabase | null>((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(DB_NAME, DB_VERSION);
    } catch {
      resolve(null);
      return;
    }
    request.onupgradeneeded = (event) => {
      if (event.oldVersion === 0 && !create) {
        // Aborting the first upgrade leaves no database at all.
        request.transaction?.abort();
        return;
      }
      const db = request.result;
      if (!db.objectStoreNames.contains(LISTS)) db.createObjectStore(LISTS);
      if (!db.objectStoreNames.contains(TIMELINES)) db.createObjectStore(TIMELINES, { keyPath: 'key' }).createIndex(BY_SAVED_AT, 'savedAt');
    };
    request.onsuccess = () => {
      const db = request.result;
      // Another page of the app deleting the database (its device was revoked) must not wait on this one.
      db.onversionchange = () => forget(db);
      db.onclose = () => forget(db);
      resolve(db);
    };
    request.onerror = () => resolve(null);
  });
  connection = opening;
  // A database that was not there is looked for again next time; it may have been made since.
  void opening.then((db) => {
    if (!db && connection === opening) connection = null;
  });
  return opening;
}

function forget(db: IDBDatabase): void {
  db.close();
  connection = null;
}

async function read(store: string, key: string): Promise<unknown> {
  const db = await open(false);
  if (!db) return undefined;
  return done(db.transaction(store, 'readonly').objectStore(store).get(key));
}

/** The last-known lists, or null when none were saved (or what was saved is not readable). */
export function readSnapshot(): Promise<SessionsSnapshot | null> {
  return run(async () => parseSnapshot(await read(LISTS, SNAPSHOT_KEY))).catch(() => null);
}

/** The saved timeline of a tab (by id) or an outside session (by key), or null. */
export function readTimeline(key: string): Promise<SavedTimeline | null> {
  return run(async () => parseSavedTimeline(await read(TIMELINES, key), key)).catch(() => null);
}

/**
 * Replaces the lists, and deletes the timelines of sessions they no longer hold: a closed
 * tab's conversation does not stay on the device.
 */
export function saveSnapshot(snapshot: SessionsSnapshot): Promise<void> {
  return run(async () => {
    if (!savesAllowed) return;
    const db = await open(true);
    if (!db) return;
    const keys = new Set<string>(snapshot.outside.map((s) => s.key));
    for (const ws of snapshot.workspaces) for (const tab of ws.tabs) keys.add(tab.id);
    const tx = db.transaction([LISTS, TIMELINES], 'readwrite');
    tx.objectStore(LISTS).put(snapshot, SNAPSHOT_KEY);
    const timelines = tx.objectStore(TIMELINES);
    timelines.openKeyCursor().onsuccess = (event) => {
      const cursor = (event.target as IDBRequest<IDBCursor | null>).result;
      if (!cursor) return;
      if (!keys.has(String(cursor.primaryKey))) timelines.delete(cursor.primaryKey);
      cursor.continue();
    };
    await committed(tx);
  }).catch(warn);
}

/** Saves the app's live lists as the last-known ones. */
export function saveLists(lists: SessionLists): Promise<void> {
  return saveSnapshot(snapshotRecord(lists, Date.now()));
}

/** Keeps a timeline, and deletes the oldest past `OFFLINE_LIMITS.timelines`. */
export function saveTimeline(timeline: SavedTimeline): Promise<void> {
  return run(async () => {
    if (!savesAllowed) return;
    const db = await open(true);
    if (!db) return;
    const tx = db.transaction(TIMELINES, 'readwrite');
    const timelines = tx.objectStore(TIMELINES);
    timelines.put(timeline);
    let seen = 0;
    // Newest first: everything after the first `timelines` goes.
    timelines.index(BY_SAVED_AT).openKeyCursor(null, 'prev').onsuccess = (event) => {
      const cursor = (event.target as IDBRequest<IDBCursor | null>).result;
      if (!cursor) return;
      if (++seen > OFFLINE_LIMITS.timelines) timelines.delete(cursor.primaryKey);
      cursor.continue();
    };
    await committed(tx);
  }).catch(warn);
}

/** Writes are welcome again: this browser has access (again). */
export function allowSaves(): void {
  savesAllowed = true;
}

/**
 * Deletes everything saved, the database itself included, and refuses later writes until
 * `allowSaves`: a device that lost its access keeps nothing of the sessions.
 */
export function clearOfflineData(): Promise<void> {
  savesAllowed = false;
  return run(async () => {
    const db = connection ? await connection : null;
    if (db) forget(db);
    connection = null;
    await new Promise<void>((resolve) => {
      let request: IDBOpenDBRequest;
      try {
        request = indexedDB.deleteDatabase(DB_NAME);
      } catch {
        resolve();
        return;
      }
      request.onsuccess = () => resolve();
      request.onerror = () => resolve();
      // Other pages of the app close theirs on `versionchange`; the deletion then completes.
      request.onblocked = () => undefined;
    });
  }).catch(warn);
}

function warn(err: unknown): void {
  console.warn('pocketmux: the offline store failed', err);
}
