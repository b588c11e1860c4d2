import type { OutsideSessions } from '../outside/outside-sessions.js';
import { outsidePlace } from '../outside/outside-sessions.js';
import type { TabService } from '../tabs/tab-service.js';

/** How a notification names where a session is: a tab by its name and workspace, an outside session by its directory. */
export function sessionPlace(tabs: Pick<TabService, 'place'>, outside: Pick<OutsideSessions, 'get'>): (key: string) => { workspace: string; tab: string; agent?: string } | null {
  return (key) => tabs.place(key) ?? outsidePlace(outside.get(key));
}
