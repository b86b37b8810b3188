/**
 * Lines of a stream of bytes, each at most a given length (a backup's lines: docs/rules.md#backup).
 * A line longer than that is refused as soon as its bytes pass the cap, never read whole: memory
 * stays within the cap and a chunk of the stream.
 */

/** A line passed the cap: `line` is its number (the first is 1). */
export class LineTooLongError extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`line ${line} is longer than ${maxBytes} bytes`);
    this.name = 'LineTooLongError';
  }
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * Reads `input` to its end holding no line, only counting: throws LineTooLongError at the first
 * line of more than `maxBytes` bytes (the bytes before its `\n`). Answers the number of lines.
 */
export async function countLines(input: AsyncIterable<Buffer>, maxBytes: number): Promise<number> {
  let line = 1;
  let length = 0;
  for await (const chunk of input) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); ; end = chunk.indexOf(NEWLINE, start)) {
      const piece = (end === -1 ? chunk.length : end) - start;
      if (length + piece > maxBytes) throw new LineTooLongError(line, maxBytes);
      if (end === -1) {
        length += piece;
        break;
      }
      line++;
      length = 0;
      start = end + 1;
    }
  }
  return length > 0 ? line : line - 1;
}

/**
 * The lines of `input` as text (UTF-8), without their endings (`\n` or `\r\n`); a last line with no
 * ending is a line, an empty end is not. Throws LineTooLongError as soon as a line passes
 * `maxBytes` bytes (as countLines counts them), before reading the rest of it.
 */
export async function* boundedLines(input: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<string> {
  let pieces: Buffer[] = [];
  let length = 0;
  let line = 1;
  const text = (last: Buffer) => {
    const bytes = pieces.length ? Buffer.concat([...pieces, last], length + last.length) : last;
    pieces = [];
    length = 0;
    const end = bytes.length > 0 && bytes[bytes.length - 1] === RETURN ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  };
  for await (const chunk of input) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); ; end = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (length + piece.length > maxBytes) throw new LineTooLongError(line, maxBytes);
      if (end === -1) {
        if (piece.length) {
          // A copy: a piece of the chunk would keep the whole chunk alive.
          pieces.push(Buffer.from(piece));
          length += piece.length;
        }
        break;
      }
      yield text(piece);
      line++;
      start = end + 1;
    }
  }
  if (length > 0) yield text(Buffer.alloc(0));
}
