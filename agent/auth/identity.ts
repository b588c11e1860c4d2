import { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from '../store/atomic-file.js';
import { newId } from '../util/ids.js';
import type { Logger } from '../util/log.js';

const Identity = z.object({ id: z.string().regex(/^ag-[a-z0-9]+$/) });

/** A stable id for this data dir, made on first start. */
export function loadIdentity(path: string, log: Logger): string {
  const result = readJsonFile(path, Identity);
  if (result.status === 'ok') return result.value.id;
  if (result.status === 'corrupt') log.warn('agent identity file was corrupt; made a new one', { reason: result.reason });
  const id = newId('ag');
  writeJsonAtomic(path, { id });
  return id;
}

/** Named after the agent, so two agents on one host (two data dirs) never share a cookie. */
export function credentialCookieName(identity: string): string {
  return `pmx_${identity.slice(3)}`;
}
