import { describe, expect, it } from 'vitest';
import { DIALOG_SHOWN_ERROR } from '../../../../protocol/approvals.js';
import { ApiRequestError } from '../../../../pwa/core/api-request.js';
import { isDialogShown } from '../../../../pwa/core/dialog-shown.js';

describe('text refused because Claude shows a dialog', () => {
  it("is the agent's 409 with the dialog's error", () => {
    expect(isDialogShown(new ApiRequestError(409, DIALOG_SHOWN_ERROR))).toBe(true);
  });

  it('is not another conflict, another status, or an error of the page', () => {
    expect(isDialogShown(new ApiRequestError(409, 'already approved by Pixel 8'))).toBe(false);
    expect(isDialogShown(new ApiRequestError(400, DIALOG_SHOWN_ERROR))).toBe(false);
    expect(isDialogShown(new Error(DIALOG_SHOWN_ERROR))).toBe(false);
    expect(isDialogShown(undefined)).toBe(false);
  });
});
