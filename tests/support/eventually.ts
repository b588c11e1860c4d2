/**
 * The one way a test waits: poll a condition until it holds. Never a fixed sleep, which is too
 * short on a slow machine and wasted time on a fast one; to show that something did NOT happen,
 * wait for a later signal that proves the agent got past it (a log line, a reply to a later
 * message), then look.
 */

/** How often `eventually` looks again. */
const POLL_MS = 50;

/**
 * Polls `check` until it returns a truthy value, and returns that value. A `check` that throws
 * counts as not yet. On timeout the error names `what`, the last error `check` threw, and what
 * `explain` says about the state then (a screen, a log), if given.
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 10_000,
  what = 'condition',
  explain?: () => Promise<string> | string,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      const state = explain ? `\n${await Promise.resolve(explain()).catch((err: unknown) => String(err))}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${(last as Error).message}` : ''}${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
