/**
 * The limits the agent enforces and the app shows before it asks: declared once here, where
 * protocol's schemas read them and the app imports them without pulling in zod.
 */

/** The longest id of a workspace or tab, and of an outside session's key. */
export const ID_MAX = 64;

/** A display name (workspace, tab, device), in UTF-16 code units as an input's `maxlength` counts. */
export const NAME_MAX = 80;

/** Text typed into a pane in one request (a prompt), in UTF-16 code units. */
export const INPUT_TEXT_MAX = 64 * 1024;

/** A decision on an approval: its message to Claude, each answer, and how many answers. */
export const DECISION_LIMITS = { message: 2000, answer: 2000, answers: 16 } as const;

/** What a pairing code is made of: letters and digits a person cannot confuse, no 0/O, 1/I/L… */
export const PAIRING_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
/** …this many, not counting the dash people type in the middle. */
export const PAIRING_CODE_LENGTH = 8;

/** The agent and the app each send a heartbeat this often on a socket (the agent's default)… */
export const HEARTBEAT_INTERVAL_MS = 30_000;
/** …and take a socket that has been silent for this long for dead. */
export const HEARTBEAT_TIMEOUT_MS = 90_000;

/** A file attached to a prompt: its raw body at most this large… */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** …and its name, percent-encoded UTF-8, in this header. */
export const UPLOAD_FILENAME_HEADER = 'X-Pocketmux-Filename';

/**
 * A guardrail's wait, in minutes: Claude holds a permission hook 30 minutes at most
 * (PERMISSION_HOOK_TIMEOUT_S), and the agent answers before that.
 */
export const GUARDRAIL_MINUTES = { min: 1, max: 29 } as const;

/** A commit message written on the phone, in UTF-16 code units. */
export const COMMIT_MESSAGE_MAX = 10_000;
