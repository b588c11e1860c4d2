/**
 * `POST …/uploads` once the route found the session's directory: the name from its header,
 * the size bound (from Content-Length before reading, then while reading), a slot among the
 * agent's concurrent uploads, the file saved, `201` with where it went.
 *
 * A refused body is read to its end and thrown away before the answer (a client still
 * sending would otherwise see its connection reset rather than the status), but only up to
 * twice the limit more: past that, or when Content-Length says it will be past that, the
 * connection is cut.
 */
import type { Request, Response } from 'express';
import type { UploadResponse } from '../../protocol/api.js';
import { UPLOAD_FILENAME_HEADER, UPLOAD_MAX_BYTES } from '../../protocol/limits.js';
import type { Logger } from '../util/log.js';
import { uploadNameFromHeader } from './upload-name.js';
import type { Slots } from '../util/slots.js';
import { discardBody, saveUpload, UploadAbortedError, UploadError, uploadSlots } from './uploads.js';

/** Why an upload was refused; the route answers each with its HTTP status. */
export type UploadRefusal = 'bad-name' | 'too-large' | 'busy' | 'failed';

export class UploadRefused extends Error {
  constructor(
    readonly reason: UploadRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** What an upload is refused with: its own reason, or what saving it found wrong with the folder. */
type Refusal = UploadRefused | UploadError;

export interface UploadRequestOptions {
  sessionDir: string;
  log: Logger;
  maxBytes?: number;
  slots?: Slots;
}

/**
 * Answers with `error` once the rest of the body is read; returns instead of throwing when
 * there is no one to answer (the body was too much to read, or the client left).
 */
async function refuse(req: Request, res: Response, error: Refusal, maxBytes: number): Promise<Refusal | null> {
  if (await discardBody(req, 2 * maxBytes)) return error;
  res.setHeader('Connection', 'close');
  req.socket.destroy();
  return null;
}

export async function receiveUpload(req: Request, res: Response, opts: UploadRequestOptions): Promise<void> {
  const maxBytes = opts.maxBytes ?? UPLOAD_MAX_BYTES;
  // A client that leaves mid-body makes its request emit an error: never one without a listener.
  req.on('error', () => undefined);
  const fail = async (error: Refusal) => {
    const answer = await refuse(req, res, error, maxBytes);
    if (answer) throw answer;
  };
  const header = uploadNameFromHeader(req.headers[UPLOAD_FILENAME_HEADER.toLowerCase()], UPLOAD_FILENAME_HEADER);
  if (!header.ok) return fail(new UploadRefused('bad-name', header.error));
  const declared = Number(req.headers['content-length'] ?? 0);
  const tooLarge = new UploadRefused('too-large', `the file is larger than the upload limit of ${maxBytes} bytes`);
  if (declared > maxBytes) {
    if (declared <= 2 * maxBytes) return fail(tooLarge);
    // Far past the limit: not worth reading to answer politely.
    res.setHeader('Connection', 'close');
    throw tooLarge;
  }
  const release = (opts.slots ?? uploadSlots).tryTake();
  if (!release) {
    res.setHeader('Retry-After', '2');
    return fail(new UploadRefused('busy', 'too many uploads at once; try again in a moment'));
  }
  let saved: UploadResponse;
  try {
    saved = await saveUpload(req, { sessionDir: opts.sessionDir, name: header.name, maxBytes });
  } catch (err) {
    if (err instanceof UploadAbortedError) {
      opts.log.debug('an upload was cut before its end; nothing was kept', { reason: err.message });
      req.socket.destroy();
      return;
    }
    if (err instanceof UploadError) return fail(err.status === 413 ? tooLarge : err);
    await refuse(req, res, new UploadRefused('failed', 'upload failed'), maxBytes);
    throw err;
  } finally {
    release();
  }
  opts.log.info('saved an upload', { bytes: saved.bytes });
  res.status(201).json(saved satisfies UploadResponse);
}
