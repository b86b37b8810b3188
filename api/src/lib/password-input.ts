import type { Readable, Writable } from 'node:stream';

/** What readPassword needs of standard input: a stream, and raw mode when it is a terminal. */
export type PasswordSource = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export class PasswordInputAborted extends Error {
  constructor() {
    super('Cancelled.');
    this.name = 'PasswordInputAborted';
  }
}

/**
 * Reads a password without it ever being an argument (arguments show in `ps` and shell history).
 * On a terminal: prints `prompt` to `output` and reads one line with echo off (backspace edits,
 * Ctrl-C or Ctrl-D on an empty line cancel). Otherwise: the first line of the input (a pipe or a
 * file), without its line ending.
 */
export function readPassword(input: PasswordSource, output: Writable, prompt: string): Promise<string> {
  return input.isTTY && input.setRawMode ? readHidden(input, output, prompt) : readFirstLine(input);
}

function readHidden(input: PasswordSource, output: Writable, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    output.write(prompt);
    input.setRawMode!(true);
    input.setEncoding('utf8');
    const finish = (err?: Error) => {
      input.setRawMode!(false);
      input.removeListener('data', onData);
      input.pause();
      output.write('\n');
      if (err) reject(err);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || (ch === '\u0004' && value === '')) return finish(new PasswordInputAborted());
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    input.on('data', onData);
    input.resume();
  });
}

function readFirstLine(input: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    input.setEncoding('utf8');
    const done = () => {
      cleanup();
      resolve(text.split(/\r?\n/)[0] ?? '');
    };
    const onData = (chunk: string) => {
      text += chunk;
      if (text.includes('\n')) done();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const cleanup = () => {
      input.removeListener('data', onData);
      input.removeListener('end', done);
      input.removeListener('error', onError);
      input.pause();
    };
    input.on('data', onData);
    input.on('end', done);
    input.on('error', onError);
    input.resume();
  });
}
