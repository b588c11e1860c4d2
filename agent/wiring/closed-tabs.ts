import type { TabService } from '../tabs/tab-service.js';
import { toDisposable, type Disposable } from '../util/disposable.js';
import { isOutsideKey } from '../../protocol/hook-contract.js';
import type { StatusManager } from './status-manager.js';

/** A closed tab's status goes with it, on clients too; sessions outside the tabs stay until their claude ends. */
export function forgetClosedTabs(status: StatusManager, tabs: TabService): Disposable {
  const onChange = () => {
    for (const key of Object.keys(status.snapshot())) {
      if (!isOutsideKey(key) && !tabs.tab(key)) status.forget(key);
    }
  };
  tabs.on('change', onChange);
  return toDisposable(() => {
    tabs.off('change', onChange);
  });
}
