/**
 * Follows one Claude Code transcript file as it grows. Each poll reads only the bytes appended
 * since the last one, parses the complete lines among them, and folds them into a summary (how
 * the last turn ended, for the status) and a bounded list of timeline entries (what was said).
 *
 * No timers and no watchers: the owner decides when to poll (after an fs.watch event, a hook,
 * or on its own schedule). Polls never overlap; a poll asked for while one runs gets that one.
 */
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { MessageUsage, TimelineEntry, ToolCallEntry } from '../../protocol/timeline.js';
import { openTranscript, type TranscriptOpener } from './transcript-file.js';
import { type ParsedLine, parseTranscriptLine, type TranscriptRecord } from './transcript-parser.js';

export interface TranscriptReaderOptions {
  /** Timeline entries kept; older ones are dropped first. */
  maxEntries?: number;
  /** Bytes asked of the file per read. */
  chunkBytes?: number;
  /**
   * A line longer than this is dropped (and counted as an error) instead of being held in
   * memory whole. Real lines reach a few MB when a tool returns a large output.
   */
  maxLineBytes?: number;
  /**
   * How the file is opened; the agent passes one that keeps to Claude's projects folder.
   * Without it the reader still opens only a regular file, never blocking on it.
   */
  open?: TranscriptOpener;
  /**
   * How a line becomes records: a Claude transcript's by default; another agent CLI's log in
   * the same records (Codex's rollout: agent/codex/rollout-parser.ts).
   */
  parseLine?: (line: string) => ParsedLine;
}

export interface TranscriptSummary {
  /**
   * Set while the last user line is the synthetic `[Request interrupted by user...]`: the turn
   * ended without any hook firing.
   */
  interrupt: { at: string; forToolUse: boolean } | undefined;
  /** Claude Code logged the end of a turn (its `turn_duration` line) after the last prompt. */
  turnEndedAt: string | undefined;
  lastPromptAt: string | undefined;
}

export interface TranscriptPoll {
  /** The file does not exist (yet, or any more), or was refused; nothing was read. */
  missing: boolean;
}

/** How far the reader got; what each poll added is the difference between two of these. */
export interface TranscriptStats {
  /** Byte offset just past the last complete line consumed. */
  offset: number;
  /** Bytes read so far, including those of a half-written last line. */
  position: number;
  /** Complete lines consumed. */
  lines: number;
  /** Lines that could not be parsed (garbage, wrong shape, too long). */
  errors: number;
  lastError: { offset: number; reason: string } | undefined;
  /**
   * Times the file shrank or was replaced and the reader started over from byte 0: the
   * entries handed out before are void.
   */
  restarts: number;
}

const DEFAULTS = {
  maxEntries: 1000,
  chunkBytes: 1024 * 1024,
  maxLineBytes: 64 * 1024 * 1024,
} as const;

/** Partial-line pieces smaller than this are copied so they don't pin a whole read buffer. */
const COPY_BELOW = 64 * 1024;

function emptySummary(): TranscriptSummary {
  return { interrupt: undefined, turnEndedAt: undefined, lastPromptAt: undefined };
}

export class TranscriptReader {
  readonly path: string;
  private readonly maxEntries: number;
  private readonly chunkBytes: number;
  private readonly maxLineBytes: number;
  private readonly openFile: TranscriptOpener;

  /** Identity of the file read so far, to notice it being replaced. */
  private fileId: { dev: number; ino: number } | undefined;
  /** Start of the line being assembled: everything before it is consumed. */
  private offset = 0;
  /** Bytes read so far; `position - offset` are held in `partial` (or dropped if overlong). */
  private position = 0;
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private overlong = false;

  private seq = 0;
  private timeline: TimelineEntry[] = [];
  private readonly toolCalls = new Map<string, ToolCallEntry>();
  private state: TranscriptSummary = emptySummary();

  private lineCount = 0;
  private errorCount = 0;
  private lastError: { offset: number; reason: string } | undefined;
  private restarts = 0;

  private inflight: Promise<TranscriptPoll> | undefined;
  private readonly parseLine: (line: string) => ParsedLine;

  constructor(path: string, options: TranscriptReaderOptions = {}) {
    this.path = path;
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULTS.maxEntries);
    this.chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULTS.chunkBytes);
    this.maxLineBytes = Math.max(1, options.maxLineBytes ?? DEFAULTS.maxLineBytes);
    this.openFile = options.open ?? ((p) => openTranscript(p, dirname(p)));
    this.parseLine = options.parseLine ?? parseTranscriptLine;
  }

  /** Reads what was appended since the last poll. Rejects only on I/O errors other than a missing file. */
  poll(): Promise<TranscriptPoll> {
    if (!this.inflight) {
      this.inflight = this.readAppended().finally(() => {
        this.inflight = undefined;
      });
    }
    return this.inflight;
  }

  summary(): TranscriptSummary {
    const s = this.state;
    return { ...s, interrupt: s.interrupt && { ...s.interrupt } };
  }

  /** The latest `limit` entries (all kept ones by default), in transcript order: a first page. */
  entries(limit?: number): TimelineEntry[] {
    if (limit === undefined || limit >= this.timeline.length) return this.timeline.slice();
    return limit <= 0 ? [] : this.timeline.slice(this.timeline.length - limit);
  }

  /** Entries added or changed after `seq` (a value of `cursor()` or an entry's `seq`). */
  entriesSince(seq: number): TimelineEntry[] {
    return this.timeline.filter((e) => e.seq > seq);
  }

  /** The seq of the latest change; `entriesSince(cursor())` is empty until the next change. */
  cursor(): number {
    return this.seq;
  }

  stats(): TranscriptStats {
    return {
      offset: this.offset,
      position: this.position,
      lines: this.lineCount,
      errors: this.errorCount,
      lastError: this.lastError && { ...this.lastError },
      restarts: this.restarts,
    };
  }

  private async readAppended(): Promise<TranscriptPoll> {
    const file = await this.openFile(this.path);
    if (file.kind !== 'open') return { missing: true };
    const handle: FileHandle = file.handle;
    try {
      const st = file.stat;
      const replaced = this.fileId !== undefined && (this.fileId.dev !== st.dev || this.fileId.ino !== st.ino);
      if (replaced || st.size < this.position) this.restart();
      this.fileId = { dev: st.dev, ino: st.ino };
      // Read up to the size seen now; what a busy writer appends meanwhile waits for the next
      // poll, so one poll always ends.
      const end = st.size;
      while (this.position < end) {
        const want = Math.min(this.chunkBytes, end - this.position);
        const buf = Buffer.allocUnsafe(want);
        const got = (await handle.read(buf, 0, want, this.position)).bytesRead;
        if (got === 0) break;
        this.position += got;
        this.consume(buf.subarray(0, got));
      }
    } finally {
      await handle.close();
    }
    this.trimTimeline(this.maxEntries);
    return { missing: false };
  }

  private restart(): void {
    this.offset = 0;
    this.position = 0;
    this.partial = [];
    this.partialBytes = 0;
    this.overlong = false;
    this.timeline = [];
    this.toolCalls.clear();
    this.state = emptySummary();
    this.restarts++;
  }

  /**
   * Splits freshly read bytes into lines. Bytes of an unfinished line are kept as they are and
   * joined once, when its newline arrives, so a line of many MB costs linear time however many
   * reads it spans. Splitting on the byte 0x0A is safe in UTF-8: it never occurs inside a
   * multi-byte character.
   */
  private consume(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        this.holdPartial(chunk.subarray(start));
        return;
      }
      const piece = chunk.subarray(start, nl);
      const length = this.partialBytes + piece.length;
      const lineStart = this.offset;
      if (this.overlong || length > this.maxLineBytes) {
        this.recordError(lineStart, `line of ${length} bytes is longer than the ${this.maxLineBytes} allowed`);
      } else {
        const bytes = this.partial.length === 0 ? piece : Buffer.concat([...this.partial, piece], length);
        this.applyLine(this.parseLine(bytes.toString('utf8')), lineStart);
      }
      this.lineCount++;
      this.offset = lineStart + length + 1;
      this.partial = [];
      this.partialBytes = 0;
      this.overlong = false;
      start = nl + 1;
    }
  }

  private holdPartial(piece: Buffer): void {
    this.partialBytes += piece.length;
    if (this.overlong) return;
    if (this.partialBytes > this.maxLineBytes) {
      // Keep counting its bytes for the offset, but stop holding them.
      this.overlong = true;
      this.partial = [];
      return;
    }
    this.partial.push(piece.length < COPY_BELOW ? Buffer.from(piece) : piece);
  }

  private recordError(offset: number, reason: string): void {
    this.errorCount++;
    this.lastError = { offset, reason };
  }

  private applyLine(parsed: ParsedLine, offset: number): void {
    if (parsed.status === 'error') {
      this.recordError(offset, parsed.reason);
      return;
    }
    // Subagent lines describe another conversation; the main one is what the tab shows.
    if (parsed.status === 'skipped' || parsed.sidechain) return;
    if (parsed.lineType === 'user' && parsed.records.length > 0) {
      const interrupt = parsed.records.find((r) => r.kind === 'interrupt');
      this.state.interrupt = interrupt && { at: interrupt.timestamp, forToolUse: interrupt.forToolUse };
    }
    const usedIds = new Set<string>();
    for (const record of parsed.records) this.applyRecord(record, offset, usedIds);
    if (this.timeline.length > 2 * this.maxEntries) this.trimTimeline(this.maxEntries);
  }

  private applyRecord(record: TranscriptRecord, offset: number, usedIds: Set<string>): void {
    const s = this.state;
    // A line holding several entries of the same kind gives each its own id.
    const idFor = (base: string): string => {
      let id = base;
      for (let n = 1; usedIds.has(id); n++) id = `${base}:${n}`;
      usedIds.add(id);
      return id;
    };
    const blockId = (r: { uuid: string; blockIndex: number }) =>
      idFor(r.blockIndex === 0 ? r.uuid : `${r.uuid}:${r.blockIndex}`);
    const at = record.timestamp;
    // What every entry of one block of an assistant message carries.
    const ofMessage = (id: string, r: { messageId: string; usage: MessageUsage | undefined }) => ({
      id,
      at,
      offset,
      seq: 0,
      messageId: r.messageId,
      ...(r.usage && { usage: r.usage }),
    });
    switch (record.kind) {
      case 'prompt':
        s.lastPromptAt = at;
        s.turnEndedAt = undefined;
        this.add({
          kind: 'prompt',
          id: idFor(record.uuid),
          at,
          offset,
          seq: 0,
          text: record.text,
          truncated: record.truncated,
        });
        break;
      case 'interrupt':
        this.add({ kind: 'interrupt', id: idFor(record.uuid), at, offset, seq: 0, forToolUse: record.forToolUse });
        break;
      case 'tool-result': {
        const call = this.toolCalls.get(record.toolUseId);
        if (call) {
          this.replace(call, {
            ...call,
            result: {
              status: record.isError ? 'error' : 'ok',
              text: record.text,
              truncated: record.truncated,
              at,
              offset,
            },
          });
        }
        break;
      }
      case 'assistant-text':
        this.add({
          kind: 'assistant-text',
          ...ofMessage(blockId(record), record),
          text: record.text,
          truncated: record.truncated,
          aborted: record.aborted,
        });
        break;
      case 'tool-use': {
        const previous = this.toolCalls.get(record.toolUseId);
        const entry: ToolCallEntry = {
          kind: 'tool-call',
          ...ofMessage(record.toolUseId, record),
          toolUseId: record.toolUseId,
          name: record.name,
          summary: record.summary,
          input: record.input,
        };
        if (previous) this.replace(previous, entry);
        else this.toolCalls.set(record.toolUseId, this.add(entry));
        break;
      }
      case 'thinking':
        this.add({
          kind: 'thinking',
          ...ofMessage(blockId(record), record),
          length: record.length,
          firstLine: record.firstLine,
          redacted: record.redacted,
        });
        break;
      case 'system':
        if (record.subtype === 'turn_duration') s.turnEndedAt = at;
        // Bookkeeping lines (hook summaries, durations) are not news to the person.
        if (record.text !== undefined || record.level !== 'info') {
          this.add({
            kind: 'notice',
            id: idFor(record.uuid),
            at,
            offset,
            seq: 0,
            subtype: record.subtype,
            level: record.level,
            text: record.text ?? record.subtype,
          });
        }
        break;
    }
  }

  private add<E extends TimelineEntry>(entry: E): E {
    entry.seq = ++this.seq;
    this.timeline.push(entry);
    return entry;
  }

  /** Entries are never mutated once handed out: a change is a new object with a new seq. */
  private replace(old: ToolCallEntry, next: ToolCallEntry): void {
    const index = this.timeline.lastIndexOf(old);
    if (index === -1) return;
    next.seq = ++this.seq;
    this.timeline[index] = next;
    this.toolCalls.set(next.toolUseId, next);
  }

  private trimTimeline(max: number): void {
    const excess = this.timeline.length - max;
    if (excess <= 0) return;
    for (const gone of this.timeline.splice(0, excess)) {
      if (gone.kind === 'tool-call' && this.toolCalls.get(gone.toolUseId) === gone) {
        this.toolCalls.delete(gone.toolUseId);
      }
    }
  }
}
