#!/usr/bin/env node
/**
 * Keeps the repository's citations true (docs/conventions.md, first section): every
 * `docs/<page>.md#<heading>` cited anywhere (code, comments, READMEs, the docs themselves) names a
 * page and a heading that exist, and nothing cites the product's former working documents, which
 * this repository does not hold, or issue numbers. Run by `npm run lint`; exits 1 with every
 * offending line.
 *
 *   node scripts/check-citations.mjs            check the files git knows (tracked and new)
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { root, runCheck } from './repo-check.mjs';

/** Names nobody may cite: documents outside the repository, and issue numbers. */
const FORBIDDEN = [
  [/\bDECISION[S]\b/, 'cites a document this repository does not hold: cite docs/rules.md#<heading>'],
  [/\bSPEC[.]md\b/, 'cites a document this repository does not hold: cite docs/rules.md#<heading>'],
  [
    /\bCONVENTION[S][.]md\b/,
    'cites a document this repository does not hold: cite docs/conventions.md#<heading>',
  ],
  [/\b[Ii]ssues? #?[0-9]/, 'cites an issue number: say what the rule is, or cite docs/rules.md#<heading>'],
];

/**
 * `docs/rules.md#import`, `../docs/rules.md#import and #backup`, in Markdown also
 * `[x](architecture.md#long-reads)` and `[x](#in-page)`: the page (or none: this page) and the headings, including a run of further
 * `#heading`s joined by ', ' or ' and '.
 */
const CITATION =
  /((?:\.\.\/)*(?:[\w-]+\/)*[\w-]+\.md)?#([a-z0-9][\w-]*)((?:(?:, and |, | and )#[a-z0-9][\w-]*)*)/g;

/** GitHub's anchor of a Markdown heading. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const headingCache = new Map();
function headingsOf(path) {
  if (!headingCache.has(path)) {
    const text = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const anchors = text === null ? null : new Set();
    if (text !== null) {
      let fenced = false;
      for (const line of text.split('\n')) {
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        const m = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
        if (m) anchors.add(slug(m[1]));
      }
    }
    headingCache.set(path, anchors);
  }
  return headingCache.get(path);
}

/** Where a cited page is: `docs/x.md` from the root, anything else from the citing file's folder. */
function resolvePage(file, page) {
  if (!page) return file;
  const fromRoot = page.replace(/^(\.\.\/)+/, '');
  if (fromRoot.startsWith('docs/')) return fromRoot;
  return relative(root, normalize(join(root, dirname(file), page)));
}

export function check(files) {
  const problems = [];
  for (const file of files) {
    if (!/\.(m?[jt]sx?|cjs|md|json|sh|ya?ml|sql)$/.test(file) || file.endsWith('package-lock.json')) continue;
    const path = join(root, file);
    if (!existsSync(path)) continue;
    const lines = readFileSync(path, 'utf8').split('\n');
    const markdown = file.endsWith('.md');
    lines.forEach((line, i) => {
      const at = `${file}:${i + 1}`;
      for (const [pattern, message] of FORBIDDEN) if (pattern.test(line)) problems.push(`${at}: ${message}`);
      for (const m of line.matchAll(CITATION)) {
        const [, page, first, more] = m;
        // A bare `#word` outside Markdown is a CSS colour, a private field or a URL fragment.
        if (!page && !(markdown && line[m.index - 1] === '(')) continue;
        // Outside Markdown only `docs/...` paths count (`x.md#y` may be anything there).
        if (page && !markdown && !/(^|\/)docs\//.test(page)) continue;
        const target = resolvePage(file, page);
        const anchors = headingsOf(join(root, target));
        if (!anchors) {
          problems.push(`${at}: cites ${target}, which does not exist`);
          continue;
        }
        const wanted = [first, ...(more.match(/#[\w-]+/g) ?? []).map((a) => a.slice(1))];
        for (const anchor of wanted)
          if (!anchors.has(anchor)) problems.push(`${at}: ${target} has no heading #${anchor}`);
      }
    });
  }
  return problems;
}

runCheck(import.meta, check, (n) => `\n${n} citation(s) to fix (docs/rules.md, docs/conventions.md).`);
