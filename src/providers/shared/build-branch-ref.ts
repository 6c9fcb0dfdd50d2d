/**
 * The full ref of a local branch: `main` → `refs/heads/main`. A full ref (`refs/…`) is kept as it is.
 * Commands use full refs so a tag or remote-tracking branch with the same short name is never picked.
 */
export function buildBranchRef(branchName: string): string {
  return branchName.startsWith('refs/') ? branchName : `refs/heads/${branchName}`;
}
