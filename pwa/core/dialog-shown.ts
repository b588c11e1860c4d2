/**
 * Text refused because Claude shows a dialog (409, DIALOG_SHOWN_ERROR): typed, it would have
 * chosen something in the dialog. Whatever sent it keeps the text and asks the app to bring
 * the dialog's card into view, since the card is where it is answered.
 */
import { DIALOG_SHOWN_ERROR } from '../../protocol/approvals.js';
import { ApiRequestError } from './api-request.js';

/** Asks the app to show the card of the dialog of the session in `detail` (a tab's id, an outside session's key). */
export const SHOW_DIALOG_EVENT = 'pm-show-dialog';

export function isDialogShown(err: unknown): boolean {
  return err instanceof ApiRequestError && err.status === 409 && err.message === DIALOG_SHOWN_ERROR;
}

export function showDialogCard(from: EventTarget, sessionKey: string): void {
  from.dispatchEvent(new CustomEvent<string>(SHOW_DIALOG_EVENT, { detail: sessionKey, bubbles: true, composed: true }));
}

declare global {
  interface HTMLElementEventMap {
    'pm-show-dialog': CustomEvent<string>;
  }
}
