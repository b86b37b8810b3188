/**
 * Files that hold secrets (a backup: password hashes, the signing key, webhook secrets;
 * docs/operations.md#backup-and-restore, docs/rules.md#backup): readable by this process's user only, whatever the
 * umask, and never written through a link or over a file someone else put at the name.
 */
import fs from 'node:fs';

export const SECRET_FILE_MODE = 0o600;
export const SECRET_DIR_MODE = 0o700;

/** A name already taken (a file, or a link put there): nothing was written to it nor through it. */
export class NameTakenError extends Error {
  constructor(readonly file: string) {
    super(`${file} already exists (a file or a link put there): refusing to write over it or through it.`);
    this.name = 'NameTakenError';
  }
}

/**
 * Creates `file` for writing, answering its descriptor: only if nothing is at that name
 * (O_CREAT|O_EXCL: an existing file or a link, even a dangling one, is refused; O_NOFOLLOW: a link
 * is never followed), mode 0600 set on the descriptor itself, so the umask does not matter.
 */
export function createSecretFile(file: string): number {
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, SECRET_FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ELOOP') throw new NameTakenError(file);
    throw err;
  }
  try {
    fs.fchmodSync(fd, SECRET_FILE_MODE);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw err;
  }
  return fd;
}

/**
 * Makes sure folder `dir` exists and only its owner may enter it: created 0700 (whatever the
 * umask) when missing; an existing one owned by this process's user loses any group and other
 * permission (0750 becomes 0700). A folder of another user (a mount point, say) is left as it is:
 * the files in it are 0600 anyway.
 */
export function ensureSecretDir(dir: string): void {
  const created = fs.mkdirSync(dir, { recursive: true, mode: SECRET_DIR_MODE });
  if (created !== undefined) {
    fs.chmodSync(dir, SECRET_DIR_MODE);
    return;
  }
  const stat = fs.statSync(dir);
  if (stat.uid === process.getuid?.() && (stat.mode & 0o077) !== 0) {
    fs.chmodSync(dir, stat.mode & SECRET_DIR_MODE);
  }
}
