import fs from 'node:fs';
import path from 'node:path';
import {
  checkPathNumber,
  COMPANY_CHECK_KEYS,
  companyCheckJsonSchema,
  PUBLIC_STATUS_LABELS,
  TRAINING_CHECK_KEYS,
  trainingCheckJsonSchema,
} from './public';
import { EFFECTIVE_STATUSES } from './statuses';

/** Every module `file` imports, itself included, following relative imports (types too). */
function importGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const [, spec] of text.matchAll(/(?:import|export)[^'"]*from\s+'([^']+)'/g)) {
    if (!spec!.startsWith('.')) {
      seen.add(spec!);
      continue;
    }
    const base = path.resolve(path.dirname(file), spec!);
    const resolved = [base, `${base}.ts`, path.join(base, 'index.ts')].find(
      (p) => fs.existsSync(p) && fs.statSync(p).isFile(),
    );
    if (resolved) importGraph(resolved, seen);
  }
  return seen;
}

describe('@sertifikasi/shared-contracts/public', () => {
  it('pulls in no yup and nothing from npm (the public page stays small)', () => {
    const graph = [...importGraph(path.join(__dirname, 'public.ts'))];
    expect(graph.filter((m) => !m.startsWith('/'))).toEqual([]);
    expect(graph.map((m) => path.basename(m)).sort()).toEqual(
      ['permissions.ts', 'public.ts', 'remotes.json', 'routes.ts', 'statuses.ts'].sort(),
    );
    const permissions = fs.readFileSync(path.join(__dirname, 'permissions.ts'), 'utf8');
    expect(permissions).not.toMatch(/from 'yup'/);
  });

  it('writes each / of a number as + and encodes the rest', () => {
    expect(checkPathNumber('QMS/2024/001')).toBe('QMS+2024+001');
    expect(checkPathNumber(' a+b/c ')).toBe('%20a%2Bb+c%20');
  });

  it('has response schemas naming exactly the answer keys, and labels for every status in both languages', () => {
    expect(Object.keys(companyCheckJsonSchema.properties).sort()).toEqual([...COMPANY_CHECK_KEYS].sort());
    expect(Object.keys(trainingCheckJsonSchema.properties).sort()).toEqual([...TRAINING_CHECK_KEYS].sort());
    for (const lang of ['id', 'en'] as const) {
      expect(Object.keys(PUBLIC_STATUS_LABELS[lang]).sort()).toEqual([...EFFECTIVE_STATUSES].sort());
    }
    expect(PUBLIC_STATUS_LABELS.en.NOACTIVE).toBe('NOT ACTIVE');
    expect(PUBLIC_STATUS_LABELS.id.EXPIRED).toBe('KADALUARSA');
  });
});
