import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const directories: string[] = [];
afterEach(() => {
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function temporaryDirectory(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-launcher-'));
  directories.push(dir);
  return dir;
}

function run(bin: string, args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: tmpdir(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * A stand-in package next to the real launcher: dist/ and src/ entry points that say which one ran, so the
 * launcher's choice is observable without building Flotilla.
 */
function fakeCheckout(): { root: string; bin: string; stamp: string; source: string } {
  const root = temporaryDirectory();
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  mkdirSync(join(root, 'bin'));
  copyFileSync(join(repoRoot, 'bin/flotilla.js'), join(root, 'bin/flotilla.js'));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  write('package.json', '{ "type": "module" }\n');
  write('tsconfig.json', '{}\n');
  write(
    'dist/cli/main.js',
    "export async function runCli() { process.stdout.write('dist\\n'); return 0; }\n",
  );
  write('dist/build-stamp.json', '{}\n');
  write(
    'src/cli/main.ts',
    "export async function runCli(): Promise<number> { process.stdout.write('src\\n'); return 0; }\n",
  );
  write('src/cli/main.test.ts', '// a test\n');
  write('src/cli/README.md', '# notes\n');
  return {
    root,
    bin: join(root, 'bin/flotilla.js'),
    stamp: join(root, 'dist/build-stamp.json'),
    source: join(root, 'src/cli/main.ts'),
  };
}

const at = (date: string) => new Date(date);

describe('bin/flotilla.js', () => {
  it('runs dist/ when it is newer than every source file (tests and READMEs aside)', () => {
    const checkout = fakeCheckout();
    utimesSync(checkout.source, at('2025-01-01'), at('2025-01-01'));
    utimesSync(checkout.stamp, at('2025-01-02'), at('2025-01-02'));
    // Edited tests and docs do not change what the CLI runs.
    for (const path of ['src/cli/main.test.ts', 'src/cli/README.md']) {
      utimesSync(join(checkout.root, path), at('2025-01-03'), at('2025-01-03'));
    }
    expect(run(checkout.bin, [])).toMatchObject({ code: 0, stdout: 'dist\n' });
  });

  it('runs the sources through tsx when a source file changed after the build (never a stale dist/)', () => {
    const checkout = fakeCheckout();
    utimesSync(checkout.stamp, at('2025-01-02'), at('2025-01-02'));
    utimesSync(checkout.source, at('2025-01-03'), at('2025-01-03'));
    expect(run(checkout.bin, [])).toMatchObject({ code: 0, stdout: 'src\n' });
  });

  it('runs the sources when dist/ was never built, and says what to do when neither exists', () => {
    const checkout = fakeCheckout();
    rmSync(join(checkout.root, 'dist'), { recursive: true });
    expect(run(checkout.bin, [])).toMatchObject({ code: 0, stdout: 'src\n' });
    rmSync(join(checkout.root, 'src'), { recursive: true });
    const missing = run(checkout.bin, []);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('dist is missing; run `npm run build`');
  });
});

describe('the npm package (npm pack)', () => {
  it('holds bin/ and the compiled dist/ (with its JSON assets) but no sources, and its bin runs', () => {
    const destination = temporaryDirectory();
    // --ignore-scripts: pack the dist/ this checkout has (prepare would rebuild it, which takes long).
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
        cwd: repoRoot,
        encoding: 'utf8',
      }),
    ) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = packed[0]!.files.map((file) => file.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/flotilla.js',
        'dist/cli/main.js',
        'dist/app/demo/demo-scenario.json',
        // `flotilla demo --provider github` runs against the fake GitHub, shipped for the demo.
        'dist/demo/fake-github/create-fake-github.js',
        // The web dashboard `flotilla serve` serves at / (web/README.md).
        'dist/web/index.html',
        'dist/web/app.js',
        'package.json',
      ]),
    );
    expect(files.filter((path) => path.startsWith('src/') || path.startsWith('test/'))).toEqual([]);

    execFileSync('tar', ['xzf', join(destination, packed[0]!.filename), '-C', destination]);
    const unpacked = join(destination, 'package');
    // Test doubles and contract suites live in test/ (issue #27): nothing shipped may load a test framework.
    const importsTestPackage = files.filter(
      (path) =>
        path.endsWith('.js') &&
        /\bfrom\s*['"](vitest|ink-testing-library|playwright-core)['"]|import\(\s*['"]vitest['"]/.test(
          readFileSync(join(unpacked, path), 'utf8'),
        ),
    );
    expect(importsTestPackage).toEqual([]);
    symlinkSync(join(repoRoot, 'node_modules'), join(unpacked, 'node_modules'));
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as {
      version: string;
    };
    const bin = join(unpacked, 'bin/flotilla.js');
    expect(run(bin, ['--version'])).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
    const help = run(bin, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: flotilla');
  });
});
