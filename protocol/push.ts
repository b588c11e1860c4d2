/**
 * Web Push: what the agent sends a device's service worker (encrypted end to end, so the push
 * service sees nothing), and what a device tells the agent about pushing to it.
 */
import { z } from 'zod/mini';

/** What a device may choose to be pushed. */
export interface PushSettings {
  /** Permission prompts, questions and dialogs, with Approve / Deny where the platform shows actions. */
  approvals: boolean;
  /** A tab waiting on the person with nothing to answer from the phone (a dialog in the terminal). */
  needsInput: boolean;
  /** A tab whose Claude finished its turn, with Claude's last sentence. */
  review: boolean;
}

export const DEFAULT_PUSH_SETTINGS: PushSettings = { approvals: true, needsInput: true, review: true };

/** `GET /api/push`: can this device be pushed, and what it chose. */
export interface PushState {
  /** The agent's VAPID public key (base64url), for `pushManager.subscribe`. */
  publicKey: string;
  subscribed: boolean;
  settings: PushSettings;
}

/**
 * A notification button. `decision` is POSTed as it is to `/api/approvals/<approvalId>` by the
 * service worker, so the worker needs no knowledge of approvals.
 */
export interface PushAction {
  action: string;
  title: string;
  decision: { decision: 'allow' | 'deny' | 'answer'; answers?: Record<string, string> | undefined; option?: string | undefined };
}

export type PushPayload =
  /** Show (or replace, by `tag`) a notification. */
  | {
      v: 1;
      kind: 'show';
      tag: string;
      title: string;
      body: string;
      /** Where a tap on the body opens the app. */
      url: string;
      /** Set when the buttons answer an approval. */
      approvalId: string | null;
      actions: PushAction[];
    }
  /** The matching notification is moot (answered elsewhere, the tab moved on): close it. */
  | { v: 1; kind: 'close'; tag: string };

/** Push services cap a payload at 4 KB; the agent keeps under this, encryption overhead aside. */
export const PUSH_PAYLOAD_MAX = 3_000;

export const PushActionSchema = z.object({
  action: z.string().check(z.maxLength(64)),
  title: z.string().check(z.maxLength(200)),
  decision: z.object({
    decision: z.enum(['allow', 'deny', 'answer']),
    answers: z.optional(z.record(z.string(), z.string())),
    option: z.optional(z.string()),
  }),
}) satisfies z.ZodMiniType<PushAction>;

export const PushPayloadSchema = z.discriminatedUnion('kind', [
  z.object({
    v: z.literal(1),
    kind: z.literal('show'),
    tag: z.string().check(z.maxLength(64)),
    title: z.string(),
    body: z.string(),
    url: z.string().check(z.startsWith('/')),
    approvalId: z.nullable(z.string()),
    actions: z.array(PushActionSchema),
  }),
  z.object({ v: z.literal(1), kind: z.literal('close'), tag: z.string().check(z.maxLength(64)) }),
]) satisfies z.ZodMiniType<PushPayload>;
