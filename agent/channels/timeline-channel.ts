import type { WebSocket } from 'ws';
import { seesLinkedMachines } from '../auth/device-store.js';
import { CloseCode } from '../../protocol/close-codes.js';
import { TIMELINE_FIRST_PAGE, type TimelineServerMessage } from '../../protocol/timeline.js';
import { CHANNEL_PATHS } from '../../protocol/routes.js';
import type { TranscriptFollowers } from '../claude/transcript-followers.js';
import type { TranscriptReader } from '../claude/transcript-reader.js';
import type { StatusManager } from '../status/status-manager.js';
import type { TabService } from '../tabs/tab-service.js';
import type { Logger } from '../util/log.js';
import type { Channel, ChannelContext, ChannelDefinition } from './channel.js';
import type { MachineUnion } from '../machines/machine-union.js';
import { splitMachineKey } from '../../protocol/machine-key.js';
import { JsonClient, type JsonClientOptions, jsonClientOptions } from './json-client.js';

interface Feed {
  clients: Set<JsonClient>;
  reader: TranscriptReader | null;
  sessionId: string | null;
  /** The reader's cursor when this feed's clients were last sent its entries. */
  cursor: number;
  /** The reader's restart count at that moment: a change means the file started over. */
  restarts: number;
  /** The transcript was read, then went (deleted or moved): the clients were told. */
  gone: boolean;
}

/** Shown under what a timeline had read when its transcript disappears. */
export const TRANSCRIPT_GONE = 'The transcript is gone (deleted or moved): this is what was read before it went.';

export interface TimelineChannelOptions {
  /** How often a watched transcript is read for new entries. */
  pollMs: number;
  client: JsonClientOptions;
}

/** Entries a transcript reader keeps: the history a timeline can show. */
export const TIMELINE_ENTRIES_KEPT = 2000;

/**
 * `/api/timeline?tab=<id>`: the tab's conversation, read from its transcript. One feed per
 * watched tab, shared by its clients, polled only while someone watches; its reader comes
 * from the agent's followers by path, so watching again resumes reading where it stopped,
 * and a transcript the status monitor follows too is read once. Clients send nothing on it.
 */
export class TimelineChannel implements Channel {
  private readonly feeds = new Map<string, Feed>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly tabs: TabService,
    private readonly status: StatusManager,
    private readonly followers: TranscriptFollowers,
    private readonly log: Logger,
    private readonly opts: TimelineChannelOptions,
    private readonly union: MachineUnion,
  ) {}

  accept(ws: WebSocket, { url, socket, device }: ChannelContext): void {
    const tabId = url.searchParams.get('tab') ?? '';
    const owner = splitMachineKey(tabId);
    if (owner) {
      // A linked machine's session: its own timeline, relayed (one level: not for a machine).
      if (!seesLinkedMachines(device)) ws.close(CloseCode.TabNotFound, 'no such tab');
      else this.union.relay(ws, owner.machineId, CHANNEL_PATHS.timeline, url.searchParams, owner.key);
      return;
    }
    // An outside session is followed only while the agent knows it, so no client can make up feeds.
    if (!this.tabs.tab(tabId) && this.status.get(tabId) === undefined) {
      ws.close(CloseCode.TabNotFound, 'no such tab');
      return;
    }
    let feed = this.feeds.get(tabId);
    if (!feed) {
      feed = { clients: new Set(), reader: null, sessionId: null, cursor: 0, restarts: 0, gone: false };
      this.feeds.set(tabId, feed);
    }
    const joined = feed;
    // A client that fell behind starts over from the current page, like a reconnect.
    const client = new JsonClient(ws, () => [this.text({ type: 'timeline:reset', tabId }), this.text(this.page(tabId, joined))], this.opts.client, socket);
    joined.clients.add(client);
    const drop = () => {
      if (!joined.clients.delete(client) || joined.clients.size > 0) return;
      if (this.feeds.get(tabId) === joined) this.feeds.delete(tabId);
      if (joined.reader) this.followers.release(joined.reader);
      joined.reader = null;
      if (this.feeds.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
    ws.on('close', drop);
    ws.on('error', drop);
    void this.refresh(tabId, joined, client);
    this.timer ??= setInterval(() => {
      for (const [id, f] of this.feeds) void this.refresh(id, f, null);
    }, this.opts.pollMs);
  }

  private text(msg: TimelineServerMessage): string {
    return JSON.stringify(msg);
  }

  private page(tabId: string, feed: Feed): TimelineServerMessage {
    return { type: 'timeline:page', tabId, entries: feed.reader ? feed.reader.entries(TIMELINE_FIRST_PAGE) : [], sessionId: feed.sessionId };
  }

  private send(targets: Iterable<JsonClient>, msg: TimelineServerMessage): void {
    const text = this.text(msg);
    for (const client of targets) client.send(text);
  }

  private caughtUp(feed: Feed, reader: TranscriptReader): void {
    feed.cursor = reader.cursor();
    feed.restarts = reader.stats().restarts;
  }

  /** Reads what is new; `fresh` is a client that just connected and needs the first page. */
  private async refresh(tabId: string, feed: Feed, fresh: JsonClient | null): Promise<void> {
    const status = this.status.get(tabId);
    const path = status?.transcriptPath ?? null;
    if (path && feed.reader?.path !== path) {
      if (feed.clients.size === 0) return;
      // A new transcript (another session, /clear): everyone starts over.
      const hadReader = feed.reader !== null;
      if (feed.reader) this.followers.release(feed.reader);
      const reader = this.followers.acquire(path);
      feed.reader = reader;
      feed.sessionId = status?.sessionId ?? null;
      feed.gone = false;
      await this.poll(tabId, reader);
      if (feed.reader !== reader) return;
      if (hadReader) this.send(feed.clients, { type: 'timeline:reset', tabId });
      this.send(feed.clients, this.page(tabId, feed));
      this.caughtUp(feed, reader);
      return;
    }
    const reader = feed.reader;
    if (fresh) {
      this.send([fresh], this.page(tabId, feed));
      if (feed.gone) this.send([fresh], { type: 'timeline:error', message: TRANSCRIPT_GONE });
      return;
    }
    if (!reader) return;
    const missing = await this.poll(tabId, reader);
    if (feed.reader !== reader) return;
    // A transcript not written yet is not gone; one read before and now missing is.
    const gone = missing && reader.stats().position > 0;
    if (gone !== feed.gone) {
      feed.gone = gone;
      // Back (moved back, or written again): a page takes the notice away.
      this.send(feed.clients, gone ? { type: 'timeline:error', message: TRANSCRIPT_GONE } : this.page(tabId, feed));
    }
    if (reader.stats().restarts !== feed.restarts) {
      this.send(feed.clients, { type: 'timeline:reset', tabId });
      this.send(feed.clients, this.page(tabId, feed));
    } else {
      const changed = reader.entriesSince(feed.cursor);
      if (changed.length > 0) this.send(feed.clients, { type: 'timeline:append', tabId, entries: changed });
    }
    this.caughtUp(feed, reader);
  }

  /** Reads what is new; true when the transcript is missing. */
  private async poll(tabId: string, reader: TranscriptReader): Promise<boolean> {
    try {
      return (await reader.poll()).missing;
    } catch (err) {
      this.log.warn('timeline read failed', { tab: tabId, error: (err as Error).message });
      return false;
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    for (const feed of this.feeds.values()) {
      for (const client of feed.clients) client.close(1001, 'agent shutting down');
      // Given back, not cleared: the followers belong to the agent, which disposes of them.
      if (feed.reader) this.followers.release(feed.reader);
      feed.reader = null;
    }
    this.feeds.clear();
  }
}

export const timelineChannel: ChannelDefinition = {
  path: CHANNEL_PATHS.timeline,
  caps: 'shared',
  open: (s) =>
    new TimelineChannel(s.tabs, s.status, s.transcripts, s.log, {
      // Someone is looking: a new entry shows within half a second even when status polls slower.
      pollMs: Math.min(s.config.transcriptPollMs, 500),
      client: jsonClientOptions(s.config),
    }, s.union),
};
