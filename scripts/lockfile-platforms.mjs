// Completes package-lock.json with the platform-specific optional packages that the registry these
// machines use does not serve (e.g. @swc/core-darwin-arm64). npm records only what it could fetch,
// and `npm ci` then refuses the lockfile as "out of sync" (npm/cli#9846). Each missing optional
// package gets an entry with its version and the os/cpu its name declares, so npm skips it here and
// installs it where the platform matches. Run after every `npm install`: `npm run lockfile`.
import fs from 'node:fs';
import path from 'node:path';

const file = path.resolve(process.argv[2] ?? 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  'darwin',
  'win32',
  'linux',
  'freebsd',
  'openbsd',
  'netbsd',
  'android',
  'sunos',
  'aix',
  'openharmony',
];
const CPU = [
  'arm64',
  'x64',
  'ia32',
  'arm',
  'ppc64',
  's390x',
  'riscv64',
  'loong64',
  'mips64el',
  'wasm32',
  'universal',
];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  let cpu = parts.find((p) => CPU.includes(p));
  if (parts.includes('gnueabihf') || parts.includes('musleabihf')) cpu = 'arm';
  const entry = {};
  if (os) entry.os = [os];
  if (cpu === 'universal') entry.cpu = ['arm64', 'x64'];
  else if (cpu) entry.cpu = [cpu];
  if (parts.includes('musl') || parts.includes('musleabihf')) entry.libc = ['musl'];
  else if (os === 'linux' && (parts.includes('gnu') || parts.includes('gnueabihf'))) entry.libc = ['glibc'];
  // Nothing to go by (e.g. a wasm build): never installed by a machine of this kind.
  if (!entry.os && !entry.cpu) entry.cpu = ['none'];
  return entry;
}

/** Where npm would look for `dep` required from the package at `from` (nearest node_modules upward). */
function resolves(from, dep) {
  let base = from;
  for (;;) {
    if (packages[`${base ? `${base}/` : ''}node_modules/${dep}`]) return true;
    if (!base) return false;
    const i = base.lastIndexOf('node_modules/');
    base = i <= 0 ? '' : base.slice(0, i - 1);
  }
}

let added = 0;
for (const [location, meta] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolves(location, dep)) continue;
    if (!/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) continue;
    packages[`node_modules/${dep}`] = {
      version: spec,
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(dep),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform-specific optional package(s) recorded`);
