import { boundedLines, countLines, LineTooLongError } from './lines';

/** `text` as a stream of chunks of `size` bytes. */
async function* chunks(text: string | Buffer, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const all = async (input: AsyncIterable<Buffer>, max = 100) => {
  const lines: string[] = [];
  for await (const line of boundedLines(input, max)) lines.push(line);
  return lines;
};

describe('boundedLines', () => {
  it('splits at \\n (and \\r\\n) whatever the chunks, a character cut between chunks included', async () => {
    const text = 'satu\r\ndua é ü 日本\n\nempat';
    for (const size of [1, 2, 3, 5, 64]) {
      expect(await all(chunks(text, size))).toEqual(['satu', 'dua é ü 日本', '', 'empat']);
    }
    expect(await all(chunks('a\nb\n', 1))).toEqual(['a', 'b']);
    expect(await all(chunks('', 1))).toEqual([]);
  });

  it('answers a line of exactly the cap, and refuses the first line past it, saying which', async () => {
    const line = 'x'.repeat(10);
    expect(await all(chunks(`${line}\n${line}`, 3), 10)).toEqual([line, line]);
    const err = await all(chunks(`ok\n${line}y\nnever`, 4), 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LineTooLongError);
    expect((err as LineTooLongError).line).toBe(2);
  });

  it('stops reading as soon as a line passes the cap', async () => {
    let read = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        read++;
        yield Buffer.alloc(16, 'a');
      }
    }
    await expect(all(endless(), 100)).rejects.toBeInstanceOf(LineTooLongError);
    expect(read).toBe(7);
  });
});

describe('countLines', () => {
  it('counts the lines as boundedLines reads them and refuses the same line', async () => {
    for (const size of [1, 4, 64]) {
      expect(await countLines(chunks('a\r\nb\n\nd', size), 10)).toBe(4);
      expect(await countLines(chunks('a\nb\n', size), 10)).toBe(2);
      expect(await countLines(chunks(`${'x'.repeat(10)}\n`, size), 10)).toBe(1);
      const err = await countLines(chunks(`a\n${'x'.repeat(11)}\n`, size), 10).catch((e: unknown) => e);
      expect((err as LineTooLongError).line).toBe(2);
    }
  });
});
