/**
 * A pane's history and screen as tmux keeps them, for find in the browser terminal: `GET
 * /api/tabs/:id/history` and `GET /api/outside/:key/history`. The terminal on screen keeps no
 * scrollback of its own (tmux does), so find searches this text, shown in a snapshot while
 * find is open.
 */
import { z } from 'zod/mini';

/**
 * At most this many bytes of text are sent: the newest, starting at a line's start. A full
 * history of colourful output can be larger; the agent never holds more than this of it.
 */
export const PANE_HISTORY_MAX_BYTES = 4 * 1024 * 1024;

export interface PaneHistory {
  /**
   * Oldest line first, the pane's current screen last, each line ended by `\n`. Lines the
   * pane wrapped are joined; colours and attributes are kept as SGR escapes, carried from
   * line to line as tmux writes them.
   */
  text: string;
  /** True when older lines were left out to stay within `PANE_HISTORY_MAX_BYTES`. */
  truncated: boolean;
}

export const PaneHistorySchema = z.object({
  text: z.string(),
  truncated: z.boolean(),
}) satisfies z.ZodMiniType<PaneHistory>;
