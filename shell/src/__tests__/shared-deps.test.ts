/**
 * @jest-environment node
 *
 * webpack/shared-deps.js shares MUI's React contexts by their path under node_modules
 * (docs/conventions.md#traps): the files creating one are found by scanning the installed package at
 * build time, so a new MUI version's new context file is shared without anyone editing a list.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

interface SharedDeps {
  contextFiles: (dir: string) => string[];
  muiContextFiles: () => string[];
  sharedDeps: (pkg: { dependencies: Record<string, string> }) => Record<string, Record<string, unknown>>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { contextFiles, muiContextFiles, sharedDeps } = require(
  path.join(ROOT, 'webpack', 'shared-deps.js'),
) as SharedDeps;

describe('the files of a package that create a React context', () => {
  let dir = '';
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'context-files-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('are the .mjs files calling createContext, at any depth, sorted, whatever their name', () => {
    write('Tabs/TabsContext.mjs', 'const C = /*#__PURE__*/React.createContext(undefined);\n');
    write(
      'Select/utils/FocusSource.mjs',
      "import { createContext } from 'react';\nconst C = createContext(null);\n",
    );
    write('Alert/AlertContext.mjs', 'const C = React.createContext();\n');
    write('Alert/Alert.mjs', 'const ctx = React.useContext(AlertContext);\n');
    write('Alert/AlertContext.js', 'const C = React.createContext();\n'); // the CommonJS build
    write('Alert/AlertContext.d.mts', 'declare const C: React.Context<unknown>;\n');
    write('node_modules/dep/DepContext.mjs', 'const C = React.createContext();\n');
    expect(contextFiles(dir)).toEqual([
      'Alert/AlertContext.mjs',
      'Select/utils/FocusSource.mjs',
      'Tabs/TabsContext.mjs',
    ]);
  });

  it('stop the build when there are none (the package changed its layout)', () => {
    write('Alert/AlertContext.js', 'const C = React.createContext();\n');
    expect(() => contextFiles(dir)).toThrow(/No \.mjs file creating a React context/);
  });
});

describe('the installed @mui/material', () => {
  const mui = path.dirname(require.resolve('@mui/material/package.json'));

  it("shares each of its context files by its path, FormControl's (the date field's label) among them", () => {
    const files = muiContextFiles();
    expect(files).toContain('FormControl/FormControlContext.mjs');
    const shared = sharedDeps({ dependencies: { '@mui/material': '^9.5.0' } });
    for (const file of files) {
      expect(shared[`@mui/material/${file}`]).toMatchObject({
        singleton: true,
        allowNodeModulesSuffixMatch: true,
        import: path.join(mui, file),
      });
      expect(fs.readFileSync(path.join(mui, file), 'utf8')).toMatch(/createContext\s*\(/);
    }
  });
});
