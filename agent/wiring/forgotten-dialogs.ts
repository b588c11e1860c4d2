import type { StatusServerMessage } from '../../protocol/status.js';
import type { PaneDialogs } from '../approvals/pane-dialogs.js';
import { type Disposable, toDisposable } from '../util/disposable.js';
import type { Listenable } from '../util/listenable.js';

/**
 * A session whose status goes (a tab closed, an outside session let go) takes what the dialog
 * poll kept of it along: what it last saw there, and the answer it last typed there.
 */
export function forgetDialogsWithStatus(status: Listenable<{ message: [StatusServerMessage] }>, dialogs: Pick<PaneDialogs, 'forget'>): Disposable {
  const onStatus = (msg: StatusServerMessage) => {
    if (msg.type === 'status:removed') dialogs.forget(msg.tabId);
  };
  status.on('message', onStatus);
  return toDisposable(() => {
    status.off('message', onStatus);
  });
}
