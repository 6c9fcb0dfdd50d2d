/**
 * Directories and files whose contents other tools later *execute*: git hooks and config (core.fsmonitor,
 * aliases, hooksPath), package-manager rc files (script-shell, yarnPath), shell rc files, ssh config
 * (ProxyCommand), Claude Code settings (hooks) and Flotilla's own config. Writing them from Bash is how a
 * blocked command is smuggled into a later, allowed one (`git commit` running `.git/hooks/pre-commit`).
 */
export const PROTECTED_PATH_SEGMENTS: readonly string[] = ['.git', '.ssh', '.gnupg', '.claude', '.flotilla'];
export const PROTECTED_FILE_NAMES: readonly string[] = [
  '.gitconfig',
  '.git-credentials',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.envrc',
];

const PROTECTED_NAMES = [...PROTECTED_PATH_SEGMENTS, ...PROTECTED_FILE_NAMES];

/**
 * True when one path segment is a protected name, in any case: macOS and Windows file systems fold case, so
 * `.GIT/hooks` and `.Claude/settings.json` reach the same files there.
 */
export function isProtectedName(segment: string): boolean {
  return PROTECTED_NAMES.includes(segment.toLowerCase());
}

/**
 * The protected name a relative path names (a protected segment, or `.config/git`), in any case; null when
 * none. Shared by the path guard and the patch check.
 */
export function findProtectedName(path: string): string | null {
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i]!;
    if (isProtectedName(segment)) return segment;
    if (segment.toLowerCase() === '.config' && segments[i + 1]?.toLowerCase() === 'git') {
      return `${segment}/${segments[i + 1]}`;
    }
  }
  return null;
}
