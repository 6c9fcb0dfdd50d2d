/**
 * Git's rules for a branch name (`git check-ref-format --branch`), checked without running git: no empty,
 * `.`-led or `.lock`-ended component, no `..`, `@{`, `//`, control characters, space, `~^:?*[\`, no leading
 * `-`, no trailing `/` or `.`, and not `@` or `HEAD`.
 */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === '@' || name === 'HEAD') return false;
  if (name.startsWith('-') || name.endsWith('/') || name.endsWith('.')) return false;
  if (name.includes('..') || name.includes('@{')) return false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters in ref names.
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}
