import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The codex binary `@openai/codex-sdk` would start, and the directories it puts first on PATH (rg). */
export interface CodexBinary {
  executablePath: string;
  pathDirs: string[];
}

const TARGETS: Readonly<Record<string, { triple: string; packageName: string }>> = {
  'linux-x64': { triple: 'x86_64-unknown-linux-musl', packageName: '@openai/codex-linux-x64' },
  'linux-arm64': { triple: 'aarch64-unknown-linux-musl', packageName: '@openai/codex-linux-arm64' },
};

/**
 * Finds the bundled codex binary as the SDK does (its platform package's `vendor/<triple>/bin/codex`), so
 * that the runtime can start it itself — inside the sandbox — through the SDK's `codexPathOverride`.
 * Throws, saying what is missing, where the SDK would.
 */
export function findCodexBinary(): CodexBinary {
  const target = TARGETS[`${process.platform}-${process.arch}`];
  if (target === undefined) {
    throw new Error(
      `codex: no bundled binary for ${process.platform} (${process.arch}) that Flotilla can sandbox`,
    );
  }
  try {
    // The SDK's entry (its package.json is not exported), then its dependencies as the SDK resolves them.
    const sdkEntry = fileURLToPath(import.meta.resolve('@openai/codex-sdk'));
    const codexPackage = createRequire(sdkEntry).resolve('@openai/codex/package.json');
    const platformPackage = createRequire(codexPackage).resolve(`${target.packageName}/package.json`);
    const root = join(dirname(platformPackage), 'vendor', target.triple);
    const executablePath = join(root, 'bin', 'codex');
    if (!existsSync(executablePath)) throw new Error(`${executablePath} is missing`);
    const pathDir = join(root, 'codex-path');
    return { executablePath, pathDirs: existsSync(pathDir) ? [pathDir] : [] };
  } catch (error) {
    throw new Error(
      `codex: the bundled binary was not found (${error instanceof Error ? error.message : String(error)}); reinstall with optional dependencies`,
    );
  }
}
