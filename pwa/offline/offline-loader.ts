/**
 * The offline view's chunk: loaded only when the agent is out of reach, so the first screen
 * never carries it. It reads what this device saved and defines the view that shows it.
 */
import { setHomeDirectory } from '../core/labels.js';
import { readSnapshot } from '../core/offline-store.js';
import './offline-view.js';
import type { SessionsSnapshot } from '../core/offline-snapshot.js';

/** The last-known lists, or null when this device saved none (or none it can read). */
export async function loadSnapshot(): Promise<SessionsSnapshot | null> {
  const snapshot = await readSnapshot();
  // Paths read `~/…` as they did live.
  if (snapshot) setHomeDirectory(snapshot.home);
  return snapshot;
}
