/** One word as a POSIX shell reads it back: as is when it is plain, else single-quoted (a `'` as `'\''`). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command as a person would type it in a shell, for messages: each word quoted only when needed. */
export function shellWords(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
