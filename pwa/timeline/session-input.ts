/**
 * What the composer asks of a session, by its key: a tab's id goes to the tab's routes, an
 * outside session's key (`outside-…`) to the outside routes, as the inbox's reply does
 * (pwa/inbox/inbox-actions.ts).
 */
import type { SlashCommandView, TabInputBody, UploadResponse } from '../../protocol/api.js';
import { PROOF_HEADER } from '../../protocol/device-proof.js';
import { UPLOAD_FILENAME_HEADER, UPLOAD_MAX_BYTES } from '../../protocol/limits.js';
import { reportAccessLost } from '../core/access-lost.js';
import { ApiRequestError } from '../core/api-request.js';
import * as api from '../core/api.js';
import { phoneContext } from '../core/phone-context.js';
import { sessionRoutes } from '../core/session-routes.js';
import { requestTarget, signProof } from '../core/device-key.js';
import { readableCommands } from './slash-commands.js';

/** Text typed into the session's pane: a tab's, or an outside session's through its own tmux. */
function typeInto(key: string, body: TabInputBody): Promise<undefined> {
  return sessionRoutes(key).input(body);
}

/**
 * Sends a prompt to the session, text and Enter in one request, by the routes the inbox's
 * reply uses (by key: a tab's id, an outside session's `outside-…`). The agent pastes the
 * text and then presses Enter, so Claude submits it whatever its length.
 */
export async function sendPrompt(key: string, text: string): Promise<void> {
  await typeInto(key, { text, enter: true, ...phoneContext() });
}

/** Escape in the session's pane: Claude stops what it does, as Esc in the terminal. */
export function pressEscape(key: string): Promise<undefined> {
  const body = { key: 'Escape' as const };
  return sessionRoutes(key).key(body);
}

export async function slashCommands(key: string): Promise<SlashCommandView[]> {
  return readableCommands(await sessionRoutes(key).commands());
}

/** 820 B, 14 KB, 2.5 MB, 10 MB: in the binary units the upload limit is set in. */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** Refused before sending: too large for the agent to take. */
export class FileTooLargeError extends Error {
  constructor(
    readonly fileName: string,
    readonly bytes: number,
  ) {
    super(`${fileName} is too large to attach`);
    this.name = 'FileTooLargeError';
  }
}

export interface UploadHandle {
  done: Promise<UploadResponse>;
  abort(): void;
}

/**
 * Sends a file to the session's directory (`.pocketmux/uploads/`), its bytes as the body and
 * its name in a header; `onProgress` hears the bytes sent so far. An XMLHttpRequest, for the
 * progress `fetch` does not report.
 */
export function uploadFile(key: string, file: Blob, name: string, onProgress: (sent: number, total: number) => void): UploadHandle {
  if (file.size > UPLOAD_MAX_BYTES) return { done: Promise.reject(new FileTooLargeError(name, file.size)), abort: () => {} };
  const route = sessionRoutes(key).upload;
  const xhr = new XMLHttpRequest();
  const path = api.routePath(route, key);
  let cancelled = false;
  // The proof is signed before the request opens: an upload cancelled meanwhile never starts.
  const done = signProof(route.method, requestTarget(path, location.origin)).then((proof) => new Promise<UploadResponse>((resolve, reject) => {
    if (cancelled) {
      reject(new ApiRequestError(0, 'The upload was cancelled.'));
      return;
    }
    xhr.open(route.method, path);
    if (proof !== null) xhr.setRequestHeader(PROOF_HEADER, proof);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.setRequestHeader(UPLOAD_FILENAME_HEADER, encodeURIComponent(name));
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onerror = () => reject(new ApiRequestError(0, 'Could not reach the agent. Is pocketmux still running?'));
    xhr.onabort = () => reject(new ApiRequestError(0, 'The upload was cancelled.'));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const r = body as Partial<UploadResponse> | undefined;
        if (r && typeof r.relativePath === 'string' && r.relativePath !== '') {
          resolve({ path: String(r.path ?? ''), relativePath: r.relativePath, bytes: Number(r.bytes ?? file.size) });
        } else reject(new ApiRequestError(xhr.status, 'The agent did not say where it saved the file.'));
        return;
      }
      if (xhr.status === 401) reportAccessLost();
      const message = (body as { error?: unknown } | undefined)?.error;
      reject(new ApiRequestError(xhr.status, typeof message === 'string' && message ? message : `The agent answered ${xhr.status} ${xhr.statusText}`.trim()));
    };
    xhr.send(file);
  }));
  return {
    done,
    abort: () => {
      cancelled = true;
      xhr.abort();
    },
  };
}

/**
 * What goes into the prompt for a saved file: `@path`, Claude Code's way to point at a file;
 * `@"path"` when the path holds a space, which would end a bare mention.
 */
export function fileMention(relativePath: string): string {
  return /[\s"]/.test(relativePath) ? `@"${relativePath.replace(/"/g, '')}"` : `@${relativePath}`;
}

/** The prompt with `insert` at `caret`, spaced from what stands on either side; and where the caret goes. */
export function insertAt(value: string, caret: number, insert: string): { value: string; caret: number } {
  const at = Math.max(0, Math.min(caret, value.length));
  const before = value.slice(0, at);
  const after = value.slice(at);
  const lead = before === '' || /\s$/.test(before) ? '' : ' ';
  const trail = /^\s/.test(after) ? '' : ' ';
  const head = `${before}${lead}${insert}${trail}`;
  // The caret goes past the space after it, ready for the next word.
  return { value: head + after, caret: head.length + (trail === '' && after.startsWith(' ') ? 1 : 0) };
}
