/**
 * An answer as it is hashed and compared: case and runs of white space
 * folded, so "  Rex " and "rex" are the same answer, and Unicode normalized
 * (NFKC), so the same word typed on two keyboards is too.
 */
export const foldAnswer = (answer: string) =>
  answer.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLocaleLowerCase('en');
