/**
 * Claude's own way to undo an auto-mode block: `/permissions` opens on "Recently blocked", a
 * list of the calls auto mode refused, newest first; `r` marks the one under the cursor to be
 * retried, and Esc tells Claude it may retry that exact call ("Told Claude it may retry …";
 * Claude is sent "Permission granted for this exact command only" and takes a turn). This is
 * that, read and typed from here, with every step seen on the screen before the next.
 * Captures: tests/fixtures/claude-code-2.1.332/auto-mode/.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Approval } from '../../protocol/approvals.js';
import { bottomLines, PROMPT_LINE, RULE_LINE } from './dialog-parser.js';
import type { DialogPanes } from './pane-dialogs.js';
import { inputBoxAt, readScreen } from './screen-reader.js';

/** One row of the Recently blocked list. */
export interface BlockedRow {
  /** Its number in the list, from 1. */
  n: number;
  /** What the call said it does (a Bash call's description), as the row shows it. */
  label: string;
  /** Marked with `r` to be retried. */
  retry: boolean;
}

export interface BlockedList {
  rows: BlockedRow[];
  /** The row the cursor is on, or null. */
  selected: number | null;
  /** What the list shows of the selected call (a command), its lines joined. */
  detail: string;
}

/** The list's own line: its tab is shown only in /permissions. */
const LIST_INTRO = /^ *Commands auto mode recently blocked\b/;
const ROW = /^ *(❯)? *(\d+)\. ([✘✔]) (.*?)(?: {2,}Auto mode:.*)?$/;
const RETRY_MARK = / \(retry\)$/;
/** Its footer, which names the key that marks a row. */
const RETRY_HINT = /\br to retry\b/;
/** What Claude says once the marked call was handed back to it. */
export const TOLD_TO_RETRY = 'Told Claude it may retry';

/** Reads the Recently blocked list of /permissions off a screen; null when it is not showing. */
export function readBlockedList(screen: string): BlockedList | null {
  const lines = bottomLines(screen);
  const intro = lines.findIndex((line) => LIST_INTRO.test(line));
  if (intro < 0 || !lines.slice(intro).some((line) => RETRY_HINT.test(line))) return null;
  const rows: BlockedRow[] = [];
  let selected: number | null = null;
  let i = intro + 1;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (RULE_LINE.test(line)) break;
    const row = ROW.exec(line);
    if (!row) continue;
    const n = Number(row[2]);
    const text = (row[4] as string).trimEnd();
    rows.push({ n, label: text.replace(RETRY_MARK, ''), retry: row[3] === '✔' && RETRY_MARK.test(text) });
    if (row[1]) selected = n;
  }
  const detail: string[] = [];
  for (i += 1; i < lines.length && !RULE_LINE.test(lines[i] as string); i++) detail.push((lines[i] as string).trim());
  return rows.length === 0 ? null : { rows, selected, detail: squash(detail.join(' ')) };
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * What the list shows of a blocked call, to find its row: a command, else the first path, URL
 * or pattern in its input. Null when the input names none; then only a list of one is taken.
 */
export function blockedCallText(toolInput: Record<string, unknown>): string | null {
  for (const field of ['command', 'file_path', 'notebook_path', 'url', 'path', 'pattern']) {
    const value = toolInput[field];
    if (typeof value === 'string' && value.trim() !== '') return squash(value);
  }
  return null;
}

/** Whether the detail shown is this call's: the list may wrap or shorten a long command. */
export function showsCall(detail: string, call: string): boolean {
  if (detail === '') return false;
  const shown = detail.replace(/…$/, '');
  return shown === call || call.startsWith(shown) || shown.startsWith(call);
}

/** Whether the input box is up and empty: typing `/permissions` there starts nothing else. */
export function promptIsEmpty(screen: string): boolean {
  const lines = bottomLines(screen);
  const box = inputBoxAt(lines);
  return box >= 0 && (lines[box] as string).replace(PROMPT_LINE, '').trim() === '';
}

export interface RetryTimings {
  /** Between a key and the look at what it did (the list drops keys for a moment once drawn). */
  stepMs: number;
  /** How long the whole retry may take. */
  timeoutMs: number;
}

/**
 * Lets Claude retry a blocked call: `/permissions`, the call's row found by moving the cursor,
 * `r`, Esc, and Claude's word that it was told. Throws, saying why, when the input box is not
 * up and empty, when the call is no longer listed, or when a step is not seen to take; the list
 * is closed again (Esc) whenever it was opened.
 */
export async function retryBlocked(panes: DialogPanes, block: Pick<Approval, 'tabId'> & { toolInput: Record<string, unknown> }, timings: RetryTimings, now: () => number = Date.now): Promise<void> {
  const { tabId } = block;
  const deadline = now() + timings.timeoutMs;
  const screen = () => panes.screen(tabId);
  if (!promptIsEmpty(await screen())) throw new Error("Claude's input box is not empty and waiting: let the turn end (or clear what is typed), then retry");
  await panes.sendInput(tabId, '/permissions', true);
  let list = readBlockedList(await screen());
  while (!list) {
    if (now() > deadline) throw new Error("Claude's list of recently blocked calls did not open");
    await sleep(timings.stepMs);
    list = readBlockedList(await screen());
  }
  try {
    await markForRetry(panes, tabId, list, blockedCallText(block.toolInput), timings, deadline, now);
  } catch (err) {
    await panes.pressKey(tabId, 'Escape').catch(() => undefined);
    throw err;
  }
  await panes.pressKey(tabId, 'Escape');
  for (;;) {
    await sleep(timings.stepMs);
    const after = await screen();
    if (after.includes(TOLD_TO_RETRY) && readScreen(after).kind === 'prompt') return;
    if (now() > deadline) throw new Error('Claude did not say it was told to retry');
  }
}

async function markForRetry(panes: DialogPanes, tabId: string, first: BlockedList, call: string | null, timings: RetryTimings, deadline: number, now: () => number): Promise<void> {
  let list = first;
  const last = Math.max(...list.rows.map((r) => r.n));
  const until = (press: () => Promise<void>, test: (l: BlockedList) => boolean, why: string) => pressUntil(panes, tabId, press, test, timings, deadline, now, why);
  // The call's row: the one whose detail shows it, looked for from the cursor down.
  for (;;) {
    const mine = call === null ? list.rows.length === 1 : showsCall(list.detail, call);
    if (mine) break;
    if (list.selected === null || list.selected >= last) throw new Error("the blocked call is no longer in Claude's list");
    const from = list.selected;
    list = await until(() => panes.pressKey(tabId, 'Down'), (l) => l.selected !== from, 'the cursor did not move in the list');
  }
  const row = list.selected;
  if (row === null) throw new Error('no row of the list is selected');
  if (list.rows.find((r) => r.n === row)?.retry) return;
  await until(() => panes.sendInput(tabId, 'r', false), (l) => l.rows.find((r) => r.n === row)?.retry === true, 'the call was not marked to be retried');
}

/** Looks a step at a time after each press, this many times, before the key is pressed again. */
const LOOKS_PER_PRESS = 3;

/**
 * Presses until the list shows what `test` wants: a key can be dropped, so it is pressed again
 * when a few looks saw nothing, until the deadline (then `why`).
 */
async function pressUntil(
  panes: DialogPanes,
  tabId: string,
  press: () => Promise<void>,
  test: (list: BlockedList) => boolean,
  timings: RetryTimings,
  deadline: number,
  now: () => number,
  why: string,
): Promise<BlockedList> {
  for (;;) {
    await press();
    for (let look = 0; look < LOOKS_PER_PRESS; look++) {
      await sleep(timings.stepMs);
      const list = readBlockedList(await panes.screen(tabId));
      if (!list) throw new Error("Claude's list of recently blocked calls closed");
      if (test(list)) return list;
    }
    if (now() > deadline) throw new Error(why);
  }
}
