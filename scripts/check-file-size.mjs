#!/usr/bin/env node
/**
 * Keeps source files small (docs/conventions.md#habits): a `.ts`, `.tsx`, `.js` or `.mjs` file git
 * knows of more than 400 lines says why it is one file, on a line of its first comment block (at
 * the top of the file) that starts with `Long file:` and a reason. Generated files and migrations
 * are not written by hand and are left out. Run by `npm run lint`; exits 1 naming every offender.
 *
 *   node scripts/check-file-size.mjs            check the files git knows (tracked and new)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, runCheck } from './repo-check.mjs';

export const MAX_LINES = 400;
const SOURCE = /\.(tsx?|m?js)$/;
/** Written by a tool, not by hand: the OpenAPI types (npm run openapi --workspace api), migrations. */
const GENERATED = [/^api\/openapi\//, /^api\/drizzle\//];

/** The lines of the comment block a file starts with (after a shebang and blank lines), bare. */
export function firstCommentBlock(text) {
  const lines = text.split('\n');
  let i = 0;
  if (lines[0]?.startsWith('#!')) i++;
  while (i < lines.length && !lines[i].trim()) i++;
  const first = lines[i]?.trim() ?? '';
  const block = [];
  if (first.startsWith('/*')) {
    for (; i < lines.length; i++) {
      const end = lines[i].indexOf('*/');
      block.push(end < 0 ? lines[i] : lines[i].slice(0, end));
      if (end >= 0) break;
    }
    return block.map((l) => l.replace(/^\s*\/?\*+\s?/, '').trim());
  }
  while (i < lines.length && lines[i].trim().startsWith('//'))
    block.push(lines[i++].trim().replace(/^\/\/+\s?/, ''));
  return block;
}

/** A file's lines, as `wc -l` counts them (a last line without a newline counts too). */
export const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The offenders among `files` (paths from the root), one message each; `read` gives a file's text. */
export function check(files, read = (file) => readFileSync(join(root, file), 'utf8')) {
  const problems = [];
  for (const file of files) {
    if (!SOURCE.test(file) || GENERATED.some((g) => g.test(file))) continue;
    const text = read(file);
    const lines = lineCount(text);
    if (lines <= MAX_LINES) continue;
    if (firstCommentBlock(text).some((l) => /^Long file:\s*\S/.test(l))) continue;
    problems.push(
      `${file}: ${lines} lines (over ${MAX_LINES}) and no 'Long file: <why it is one file>' line in the comment block at its top`,
    );
  }
  return problems;
}

runCheck(
  import.meta,
  check,
  (n) =>
    `\n${n} file(s) over ${MAX_LINES} lines: split each by concern, or give the reason (docs/conventions.md#habits).`,
);
