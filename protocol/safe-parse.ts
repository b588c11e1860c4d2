/**
 * zod runs a length check (min, max, length) on anything that has a `length` property, even
 * after its type check failed, and compares that `length` as it is: one that cannot become a
 * primitive (`{"length": {"toString": 1, "valueOf": 1}}`, plain JSON) makes the parse throw
 * instead of failing. Every parse of outside input goes through here, so such input is
 * refused as any other that does not fit its schema: a clear error, nothing changed.
 */

export function safeParse<R extends { success: boolean }>(schema: { safeParse(value: unknown): R }, value: unknown): R {
  try {
    return schema.safeParse(value);
  } catch (err) {
    // Worded and shaped as zod's own refusal: callers read `message` and `issues[].path`.
    const message = `cannot be checked: ${err}`;
    return { success: false, error: { message, issues: [{ path: [], message }] } } as unknown as R;
  }
}
