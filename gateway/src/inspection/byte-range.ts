/**
 * One HTTP byte range (RFC 9110 14.1.2): `bytes=a-b`, `bytes=a-` or
 * `bytes=-n` against a resource of `size` bytes. Several ranges in one
 * request are answered with the whole resource (a player asks for one).
 */
export type RangeRequest = { kind: 'none' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

export function parseByteRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'none' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'none' };
  const [, first, last] = match;
  let start: number;
  let end: number;
  if (first === '') {
    // A suffix: the last n bytes.
    const length = Number(last);
    if (length === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - length);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== '' && Number(last) < start) return { kind: 'none' };
  }
  if (start >= size || !Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
