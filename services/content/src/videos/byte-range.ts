/** What a Range header asks of a representation of `size` bytes (RFC 9110 section 14). */
export type RangeRequest =
  /** No Range header, or one to ignore: answer the whole representation with 200. */
  | { kind: 'whole' }
  /** One satisfiable range, inclusive bounds: answer 206 with `Content-Range: bytes start-end/size`. */
  | { kind: 'range'; start: number; end: number }
  /** A valid range that selects nothing: answer 416 with `Content-Range: bytes *\/size`. */
  | { kind: 'unsatisfiable' };

const RANGE_SPEC = /^(\d*)-(\d*)$/;

/**
 * Reads `bytes=a-b`, `bytes=a-` and `bytes=-n`. Following RFC 9110, a header that is not valid
 * (other units, garbage, a-b with b < a) is ignored rather than refused, and so is a request for
 * several ranges: a player asks for one, and multipart/byteranges would buy nothing here.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const match = /^\s*bytes\s*=\s*(.*?)\s*$/i.exec(header);
  if (!match?.[1]) return { kind: 'whole' };
  const specs = match[1].split(',').map((spec) => spec.trim());
  if (specs.length !== 1) return { kind: 'whole' };
  const spec = RANGE_SPEC.exec(specs[0]!);
  if (!spec) return { kind: 'whole' };
  const [, first = '', last = ''] = spec;

  if (first === '') {
    // Suffix: the last n bytes.
    if (last === '') return { kind: 'whole' };
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - length), end: size - 1 };
  }

  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end: Math.min(end, size - 1) };
}

/** Entity tags of If-None-Match or If-Range, without the weak prefix; `*` as itself. */
function entityTags(header: string): { tag: string; weak: boolean }[] {
  const tags: { tag: string; weak: boolean }[] = [];
  for (const match of header.matchAll(/(W\/)?"([^"]*)"|(\*)/g)) {
    tags.push(match[3] ? { tag: '*', weak: false } : { tag: match[2] ?? '', weak: Boolean(match[1]) });
  }
  return tags;
}

/** If-None-Match uses the weak comparison: a match means the client's copy is current (304). */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return entityTags(header).some(({ tag }) => tag === '*' || tag === etag);
}

/**
 * If-Range uses the strong comparison: the range applies only to the representation the client has.
 * A date (we send no Last-Modified) or a weak tag never matches, so the client gets the whole file.
 */
export function rangeStillValid(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  const [first] = entityTags(header);
  return first !== undefined && !first.weak && first.tag === etag;
}
