import { describe, expect, it } from 'vitest';
import { paragraphs, withoutSharedIndent } from '../../../../pwa/inbox/dialog-text.js';

describe("a dialog's text on its card", () => {
  it('splits the paragraphs where Claude leaves a blank line', () => {
    const text = "Auto mode's safety check runs on the server.\n\nYou can stay in auto mode.\n  \nOr you can leave.\nThis turn stops.";
    expect(paragraphs(text)).toEqual(["Auto mode's safety check runs on the server.", 'You can stay in auto mode.', 'Or you can leave.\nThis turn stops.']);
  });

  it('has no paragraph for blank text', () => {
    expect(paragraphs('')).toEqual([]);
    expect(paragraphs('\n\n  \n')).toEqual([]);
  });

  it("takes off the indent an unread screen's lines share, and keeps the rest of its columns", () => {
    expect(withoutSharedIndent('  Resume session\n\n  ❯ hello there\n    1 second ago')).toBe('Resume session\n\n❯ hello there\n  1 second ago');
    expect(withoutSharedIndent('flush\n  indented')).toBe('flush\n  indented');
  });
});
