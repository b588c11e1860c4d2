import type { WebSocket } from 'ws';
import { TIMELINE_FIRST_PAGE, type TimelineServerMessage } from '../../protocol/timeline.js';
import type { StatusManager } from '../status/status-manager.js';
import type { Logger } from '../util/log.js';
import { TranscriptReader } from './transcript-reader.js';

interface Feed {
  clients: Set<WebSocket>;
  reader: TranscriptReader | null;
  sessionId: string | null;
}

/**
 * `/api/timeline?tab=<id>`: the tab's conversation, read from its transcript. One reader per
 * watched tab, shared by its clients, polled only while someone watches.
 */
export class TimelineHub {
  private readonly feeds = new Map<string, Feed>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly status: StatusManager,
    private readonly log: Logger,
    private readonly pollMs: number,
  ) {}

  add(ws: WebSocket, tabId: string): void {
    let feed = this.feeds.get(tabId);
    if (!feed) {
      feed = { clients: new Set(), reader: null, sessionId: null };
      this.feeds.set(tabId, feed);
    }
    feed.clients.add(ws);
    const drop = () => {
      feed.clients.delete(ws);
      if (feed.clients.size === 0) this.feeds.delete(tabId);
      if (this.feeds.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
    ws.on('close', drop);
    ws.on('error', drop);
    void this.refresh(tabId, feed, ws);
    this.timer ??= setInterval(() => {
      for (const [id, f] of this.feeds) void this.refresh(id, f, null);
    }, this.pollMs);
  }

  private send(targets: Iterable<WebSocket>, msg: TimelineServerMessage): void {
    const text = JSON.stringify(msg);
    for (const ws of targets) if (ws.readyState === ws.OPEN) ws.send(text);
  }

  /** Reads what is new; `fresh` is a client that just connected and needs the first page. */
  private async refresh(tabId: string, feed: Feed, fresh: WebSocket | null): Promise<void> {
    const status = this.status.get(tabId);
    const path = status?.transcriptPath ?? null;
    if (path && feed.reader?.path !== path) {
      // A new transcript (another session, /clear): everyone starts over.
      if (feed.reader) this.send(feed.clients, { type: 'timeline:reset', tabId });
      feed.reader = new TranscriptReader(path, { maxEntries: 2000 });
      feed.sessionId = status?.sessionId ?? null;
      fresh = null;
      try {
        await feed.reader.poll();
      } catch (err) {
        this.log.warn('timeline read failed', { tab: tabId, error: (err as Error).message });
      }
      this.send(feed.clients, { type: 'timeline:page', tabId, entries: feed.reader.entries(TIMELINE_FIRST_PAGE), sessionId: feed.sessionId });
      return;
    }
    const reader = feed.reader;
    if (fresh) {
      this.send([fresh], { type: 'timeline:page', tabId, entries: reader ? reader.entries(TIMELINE_FIRST_PAGE) : [], sessionId: feed.sessionId });
      return;
    }
    if (!reader) return;
    try {
      const poll = await reader.poll();
      if (poll.restarted) {
        this.send(feed.clients, { type: 'timeline:reset', tabId });
        this.send(feed.clients, { type: 'timeline:page', tabId, entries: reader.entries(TIMELINE_FIRST_PAGE), sessionId: feed.sessionId });
      } else if (poll.changed.length > 0) {
        this.send(feed.clients, { type: 'timeline:append', tabId, entries: poll.changed });
      }
    } catch (err) {
      this.log.warn('timeline read failed', { tab: tabId, error: (err as Error).message });
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    for (const feed of this.feeds.values()) for (const ws of feed.clients) ws.close(1001, 'agent shutting down');
    this.feeds.clear();
  }
}
