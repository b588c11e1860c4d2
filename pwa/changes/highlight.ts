/**
 * Syntax colours for a diff, a line at a time: keywords, strings, numbers and comments of the
 * common languages, told by the file's extension. Pure and small on purpose: a line is read on
 * its own (a block comment or string that spans lines is coloured where its line shows it), and
 * an unknown language is left plain, never guessed.
 */

export type TokenKind = 'kw' | 'str' | 'num' | 'com';

export interface Token {
  text: string;
  kind?: TokenKind;
}

interface Language {
  keywords: ReadonlySet<string>;
  /** What starts a comment to the end of the line. */
  lineComment: readonly string[];
  /** Whether `/* … *\/` comments are the language's. */
  blockComment: boolean;
  quotes: string;
}

const words = (list: string): ReadonlySet<string> => new Set(list.split(' '));

const C_LIKE = words(
  'abstract as async await break case catch class const continue default defer delete do else enum export extends false final finally fn for func function go if impl implements import in instanceof interface let loop match mod mut new nil null package private protected pub public return self static struct super switch this throw throws true try type typeof undefined use var void while yield',
);
const SCRIPT = words(
  'and as assert async await break case class def del do done elif else end esac except export false fi finally for from function global if import in is lambda local module nil None not or pass raise require return self then True False true until when while with yield',
);

const LANGUAGES: Readonly<Record<string, Language>> = {
  c: { keywords: C_LIKE, lineComment: ['//'], blockComment: true, quotes: '"\'`' },
  script: { keywords: SCRIPT, lineComment: ['#'], blockComment: false, quotes: '"\'' },
  sql: { keywords: words('select from where and or not insert into values update set delete create table index drop alter join left right inner outer on group by order having limit as null is in exists primary key references default'), lineComment: ['--'], blockComment: true, quotes: '\'"' },
  css: { keywords: words('important media supports import from to'), lineComment: [], blockComment: true, quotes: '"\'' },
  data: { keywords: words('true false null yes no on off'), lineComment: ['#'], blockComment: false, quotes: '"\'' },
};

const BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'c', tsx: 'c', js: 'c', jsx: 'c', mjs: 'c', cjs: 'c', java: 'c', kt: 'c', swift: 'c', go: 'c', rs: 'c', c: 'c', h: 'c', cc: 'c', cpp: 'c', hpp: 'c', cs: 'c', php: 'c', scala: 'c', dart: 'c',
  py: 'script', rb: 'script', sh: 'script', bash: 'script', zsh: 'script', pl: 'script', r: 'script', ex: 'script', exs: 'script', lua: 'script',
  sql: 'sql', css: 'css', scss: 'css', less: 'css',
  json: 'data', yaml: 'data', yml: 'data', toml: 'data',
};

/** The language a path's extension names, or null for one left plain. */
export function languageOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (name === 'dockerfile' || name === 'makefile') return 'script';
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? null : (BY_EXTENSION[name.slice(dot + 1)] ?? null);
}

/** A line's tokens, covering it whole; one plain token for a language it does not know. */
export function highlightLine(text: string, language: string | null): Token[] {
  const lang = language === null ? undefined : LANGUAGES[language];
  if (!lang || text === '') return [{ text }];
  const out: Token[] = [];
  const push = (part: string, kind?: TokenKind) => {
    if (part === '') return;
    const last = out.at(-1);
    if (last && last.kind === kind) last.text += part;
    else out.push(kind ? { text: part, kind } : { text: part });
  };
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const c = text[i] as string;
    if (lang.lineComment.some((m) => rest.startsWith(m))) {
      push(rest, 'com');
      break;
    }
    // A block comment, or the inside of one that began on an earlier line (`* …`, `*/`).
    if (lang.blockComment && (rest.startsWith('/*') || (out.length === 0 && /^\s*\*/.test(rest)))) {
      const end = text.indexOf('*/', i + 1);
      const stop = end < 0 ? text.length : end + 2;
      push(text.slice(i, stop), 'com');
      i = stop;
      continue;
    }
    if (lang.quotes.includes(c)) {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      const stop = Math.min(j + 1, text.length);
      push(text.slice(i, stop), 'str');
      i = stop;
      continue;
    }
    const word = /^[\p{L}_$][\p{L}\p{N}_$]*/u.exec(rest)?.[0];
    if (word) {
      push(word, lang.keywords.has(word) ? 'kw' : undefined);
      i += word.length;
      continue;
    }
    const number = /^(?:0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(rest)?.[0];
    if (number) {
      push(number, 'num');
      i += number.length;
      continue;
    }
    push(c);
    i++;
  }
  return out;
}

/** Two ways of cutting one line (the words a diff marked, the syntax tokens), cut together. */
export function overlay<A, B>(text: string, first: readonly { text: string; value: A }[], second: readonly { text: string; value: B }[]): { text: string; a: A; b: B }[] {
  const out: { text: string; a: A; b: B }[] = [];
  let i = 0;
  let j = 0;
  let offA = 0;
  let offB = 0;
  let at = 0;
  while (at < text.length && i < first.length && j < second.length) {
    const a = first[i] as { text: string; value: A };
    const b = second[j] as { text: string; value: B };
    const take = Math.min(a.text.length - offA, b.text.length - offB);
    out.push({ text: text.slice(at, at + take), a: a.value, b: b.value });
    at += take;
    offA += take;
    offB += take;
    if (offA === a.text.length) {
      i++;
      offA = 0;
    }
    if (offB === b.text.length) {
      j++;
      offB = 0;
    }
  }
  return out;
}
