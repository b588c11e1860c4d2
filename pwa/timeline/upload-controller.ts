import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { errorText } from '../core/api-request.js';
import { UPLOAD_MAX_BYTES } from '../../protocol/limits.js';
import { fileMention, fileSize, type UploadHandle, uploadFile } from './session-input.js';
import { closeSmallIcon } from './timeline-icons.js';

/** A line under the composer's field: what went wrong, or what was done. */
export interface ComposerNote {
  kind: 'error' | 'info';
  text: string;
}

interface Upload {
  name: string;
  bytes: number;
  sent: number;
}

/** What an upload asks of the composer that holds it. */
export interface UploadTarget {
  /** The session the file goes to: its directory receives it. */
  sessionKey(): string;
  /** Puts `@path` of the saved file in the prompt, at the caret. */
  mention(text: string): void;
  note(note: ComposerNote | null): void;
  /** Announced to a screen reader. */
  say(text: string): void;
}

/** A pasted image has no name of its own. */
function nameOf(file: File): string {
  if (file.name) return file.name;
  const ext = /^image\/([a-z0-9]+)/.exec(file.type)?.[1] ?? 'bin';
  return `pasted.${ext === 'jpeg' ? 'jpg' : ext}`;
}

/**
 * Files attached to a prompt (the paperclip, or an image pasted): each is put in the session's
 * directory, one at a time, with its progress shown and a way to cancel, and `@its/path` goes
 * in the prompt.
 */
export class UploadController implements ReactiveController {
  upload: Upload | null = null;
  private uploading: UploadHandle | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly target: UploadTarget,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.uploading?.abort();
  }

  private set(upload: Upload | null): void {
    this.upload = upload;
    this.host.requestUpdate();
  }

  async attach(files: readonly File[]): Promise<void> {
    for (const file of files) {
      const name = nameOf(file);
      if (file.size > UPLOAD_MAX_BYTES) {
        this.target.note({ kind: 'error', text: `${name} (${fileSize(file.size)}) is too large: files up to ${fileSize(UPLOAD_MAX_BYTES)} can be attached.` });
        continue;
      }
      this.target.note(null);
      this.set({ name, bytes: file.size, sent: 0 });
      const handle = uploadFile(this.target.sessionKey(), file, name, (sent) => {
        if (this.upload) this.set({ ...this.upload, sent });
      });
      this.uploading = handle;
      try {
        const saved = await handle.done;
        this.target.mention(fileMention(saved.relativePath));
        this.target.note({ kind: 'info', text: `Attached ${name} (${fileSize(saved.bytes)}).` });
        this.target.say(`Attached ${name}.`);
      } catch (err) {
        this.target.note({ kind: 'error', text: `Could not attach ${name}: ${errorText(err)}` });
      } finally {
        this.uploading = null;
        this.set(null);
      }
    }
  }

  render() {
    const u = this.upload;
    if (!u) return nothing;
    const percent = u.bytes > 0 ? Math.round((u.sent / u.bytes) * 100) : 0;
    return html`<div class="line upload" role="status">
      <span class="label">Uploading</span>
      <span class="text" title=${u.name}>${u.name} · ${fileSize(u.bytes)}</span>
      <progress max="100" .value=${percent} aria-label=${`Uploading ${u.name}: ${percent}%`}></progress>
      <button class="icon" aria-label="Cancel the upload" title="Cancel the upload" @click=${() => this.uploading?.abort()}>${closeSmallIcon()}</button>
    </div>`;
  }
}
