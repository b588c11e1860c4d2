import { describe, expect, it } from 'vitest';
import {
  sanitizeUploadName,
  UPLOAD_FALLBACK_NAME,
  UPLOAD_NAME_LIMITS,
  uploadFileName,
  uploadNameFromHeader,
  uploadStamp,
} from '../../../../agent/composer/upload-name.js';

describe('an upload name made safe', () => {
  it.each([
    ['photo.png', 'photo.png'],
    ['Screenshot 2025-01-02 at 10.11.12.png', 'Screenshot 2025-01-02 at 10.11.12.png'],
    ['写真.jpg', '写真.jpg'],
    ['../../x', 'x'],
    ['/etc/passwd', 'passwd'],
    ['C:\\Users\\me\\report.pdf', 'report.pdf'],
    ['dir/', 'dir'],
    ['a\u202Eb.png', 'ab.png'],
    ['evil\u2066gpj.exe', 'evilgpj.exe'],
    ['tab\there\nand\rnewline.txt', 'tabhereandnewline.txt'],
    ['esc\u001b[2Jape.txt', 'esc[2Jape.txt'],
    ['nul\u0000.txt', 'nul.txt'],
    ['c1\u009bcsi.txt', 'c1csi.txt'],
    ['.bashrc', 'bashrc'],
    ['...hidden', 'hidden'],
    ['  spaced   out  .md', 'spaced out .md'],
    ['trailing.', 'trailing'],
    ['e\u0301.txt', 'é.txt'],
  ])('%j is %j', (raw, safe) => {
    expect(sanitizeUploadName(raw)).toBe(safe);
  });

  it.each([[''], ['.'], ['..'], ['/'], ['../..'], ['\u202e'], ['   '], ['\u0000\u0001']])('%j falls back to upload.bin', (raw) => {
    expect(sanitizeUploadName(raw)).toBe(UPLOAD_FALLBACK_NAME);
  });

  it('keeps at most 120 characters and 200 bytes, keeping the extension', () => {
    const long = sanitizeUploadName(`${'a'.repeat(300)}.png`);
    expect(long).toHaveLength(UPLOAD_NAME_LIMITS.chars);
    expect(long.endsWith('.png')).toBe(true);
    const wide = sanitizeUploadName(`${'界'.repeat(100)}.jpeg`);
    expect(Buffer.byteLength(wide)).toBeLessThanOrEqual(UPLOAD_NAME_LIMITS.bytes);
    expect(wide.endsWith('.jpeg')).toBe(true);
    const emoji = sanitizeUploadName('😀'.repeat(200));
    expect(Buffer.byteLength(emoji)).toBeLessThanOrEqual(UPLOAD_NAME_LIMITS.bytes);
    expect(emoji).toBe('😀'.repeat(50));
  });
});

describe('the file name header', () => {
  it('is percent-encoded UTF-8, then made safe', () => {
    expect(uploadNameFromHeader(encodeURIComponent('résumé 1.pdf'))).toEqual({ ok: true, name: 'résumé 1.pdf' });
    expect(uploadNameFromHeader(encodeURIComponent('../../x'))).toEqual({ ok: true, name: 'x' });
    expect(uploadNameFromHeader('plain.txt')).toEqual({ ok: true, name: 'plain.txt' });
  });

  it('is required, once, and must decode', () => {
    expect(uploadNameFromHeader(undefined)).toMatchObject({ ok: false, error: expect.stringContaining('missing') });
    expect(uploadNameFromHeader('  ')).toMatchObject({ ok: false });
    expect(uploadNameFromHeader(['a', 'b'])).toMatchObject({ ok: false });
    expect(uploadNameFromHeader('%E0%A4%A')).toMatchObject({ ok: false, error: expect.stringContaining('percent-encoded') });
    expect(uploadNameFromHeader('%FF.png')).toMatchObject({ ok: false });
    expect(uploadNameFromHeader('x'.repeat(UPLOAD_NAME_LIMITS.header + 1))).toMatchObject({ ok: false, error: expect.stringContaining('too long') });
  });
});

describe('the saved name', () => {
  it('starts with the local time, and counts up before the extension', () => {
    const stamp = uploadStamp(new Date(2025, 0, 2, 3, 4, 5));
    expect(stamp).toBe('20250102-030405');
    expect(uploadFileName(stamp, 'photo.png', 1)).toBe('20250102-030405-photo.png');
    expect(uploadFileName(stamp, 'photo.png', 2)).toBe('20250102-030405-photo-2.png');
    expect(uploadFileName(stamp, 'Makefile', 3)).toBe('20250102-030405-Makefile-3');
  });
});
