import { describe, expect, it } from 'vitest';
import { approvalLink, linkOutcome, withoutApprovalLink } from '../../../../pwa/app/deep-link.js';

describe('a notification’s link to an approval', () => {
  it('reads the approval id from the query', () => {
    expect(approvalLink('?approval=ap-3f9k2')).toBe('ap-3f9k2');
    expect(approvalLink('?x=1&approval=ap_1')).toBe('ap_1');
    expect(approvalLink('')).toBeNull();
    expect(approvalLink('?approval=')).toBeNull();
    expect(approvalLink('?approval=a%22%3E%3Cimg')).toBeNull();
    expect(approvalLink(`?approval=${'a'.repeat(65)}`)).toBeNull();
  });

  it('leaves the rest of the query as it was', () => {
    expect(withoutApprovalLink('?approval=ap-1')).toBe('');
    expect(withoutApprovalLink('?a=1&approval=ap-1&b=2')).toBe('?a=1&b=2');
    expect(withoutApprovalLink('')).toBe('');
  });

  it('shows an open approval, and says one that is gone was answered', () => {
    expect(linkOutcome('ap-1', ['ap-0', 'ap-1'])).toBe('show');
    expect(linkOutcome('ap-2', ['ap-0', 'ap-1'])).toBe('answered');
    expect(linkOutcome('ap-2', [])).toBe('answered');
  });
});
