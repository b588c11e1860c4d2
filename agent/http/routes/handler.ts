import type { NextFunction, Request, Response } from 'express';
import { seesLinkedMachines } from '../../auth/device-store.js';
import type { z } from 'zod';
import type { ApiError } from '../../../protocol/api.js';
import type { DeviceRecord } from '../../auth/device-store.js';
import { safeParse } from '../../../protocol/safe-parse.js';

/** Thrown inside handlers; turned into a JSON error with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: ApiError['issues'],
  ) {
    super(message);
  }
}

/** A value from the request through its schema, or a 400 naming each field that is wrong. */
export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = safeParse(schema, value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw new HttpError(400, `invalid ${what}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`, issues);
}

type Handler = (req: Request, res: Response) => Promise<void> | void;

/** Express 5 forwards rejected promises to the error handler; this keeps types tidy. */
export const handler = (fn: Handler) => (req: Request, res: Response, next: NextFunction) => {
  Promise.resolve(fn(req, res)).catch(next);
};

/** The device the credential check let in. */
export function deviceOf(res: Response): DeviceRecord {
  return res.locals.device as DeviceRecord;
}

/**
 * Whether a list answered to this caller holds the linked machines' beside this agent's own:
 * not for a linked agent (one level deep, it sees only what is this agent's own).
 */
export function seesLinked(res: Response): boolean {
  return seesLinkedMachines(deviceOf(res));
}
