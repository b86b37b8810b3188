/**
 * What the repository's own checks share (check-citations.mjs, check-file-size.mjs): the files git
 * knows (tracked, and new ones it does not ignore) that exist in the working tree, and a run that
 * prints every problem and exits 1 when there is any.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The repository's files, relative to its root. */
export function repoFiles() {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((f) => f && existsSync(join(root, f)));
}

/** Runs `check` over the repository's files when `meta` is the script node was started with. */
export function runCheck(meta, check, summary) {
  if (process.argv[1] !== fileURLToPath(meta.url)) return;
  const problems = check(repoFiles());
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(summary(problems.length));
    process.exit(1);
  }
}
