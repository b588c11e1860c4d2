import type { Response } from 'express';
import type { PaneHistory } from '../../../protocol/pane-history.js';
import { MAX_CONCURRENT_CAPTURES } from '../../tmux/pane-history.js';
import { Slots } from '../../util/slots.js';
import { HttpError } from './handler.js';

/** Every history capture of the agent's, tabs' and outside panes' alike. */
const captureSlots = new Slots(MAX_CONCURRENT_CAPTURES);

/**
 * Answers with a pane's history, captured in one of the agent's few capture slots: each holds
 * up to the byte bound while it is read and sent, so a client asking many at once gets `503`.
 */
export async function sendHistory(res: Response, capture: () => Promise<PaneHistory>, slots: Slots = captureSlots): Promise<void> {
  const release = slots.tryTake();
  if (!release) {
    res.setHeader('Retry-After', '1');
    throw new HttpError(503, 'too many history captures at once; try again in a moment');
  }
  try {
    res.json((await capture()) satisfies PaneHistory);
  } finally {
    release();
  }
}
