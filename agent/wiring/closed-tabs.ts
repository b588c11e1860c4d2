import { parseSessionKey } from '../../protocol/session-key.js';
import type { StatusManager } from '../status/status-manager.js';
import type { TabService } from '../tabs/tab-service.js';
import { type Disposable, toDisposable } from '../util/disposable.js';
import type { Listenable } from '../util/listenable.js';

/** A closed tab's status goes with it, on clients too; sessions outside the tabs stay until their claude ends. */
export function forgetClosedTabs(status: Pick<StatusManager, 'snapshot' | 'forget'>, tabs: Pick<TabService, 'tab'> & Listenable<{ change: [] }>): Disposable {
  const onChange = () => {
    for (const key of Object.keys(status.snapshot())) {
      if (parseSessionKey(key).kind === 'tab' && !tabs.tab(key)) status.forget(key);
    }
  };
  tabs.on('change', onChange);
  return toDisposable(() => {
    tabs.off('change', onChange);
  });
}
