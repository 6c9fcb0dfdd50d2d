import {
  applyIntegration,
  findCleanCheckout,
  IntegrateRevisionError,
  type IntegrateRevisionParams,
  type IntegrateRevisionResult,
  planIntegration,
} from './integrate-revision.ts';
import { fetchRevisionBranch, pushDefaultBranch, syncDefaultBranch } from './sync-with-shared-remote.ts';

/** Integrations tried when the push is rejected: the first, and one more after fetching again. */
const ATTEMPTS = 2;

export interface SharedRemoteIntegration extends IntegrateRevisionParams {
  /** The git remote the machines share (`cluster.remote`). */
  remote: string;
  /** Told when the shared remote has the merge but this clone's default branch could not follow. */
  warn: (message: string, error: unknown) => void;
}

/**
 * Cluster mode's merge (issue #33): the shared remote's default branch is the one that counts, so a merge
 * from any clone (a controller's, a human's `flotilla merge`) lands there.
 * 1. This clone's default branch is brought up to the remote's (syncDefaultBranch: fast-forward only; one
 *    with commits of its own is refused) and the revision branch taken from what its controller published
 *    when missing or behind (fetchRevisionBranch).
 * 2. The result is computed (planIntegration) and the default branch's checkout checked, then pushed to the
 *    remote, fast-forward only — never forced. A push rejected because another machine merged meanwhile
 *    starts over once from 1; a second rejection throws, and nothing was merged anywhere.
 * 3. Only then does this clone's default branch move (applyIntegration). Should that fail (a checkout
 *    edited a moment ago), the merge stands — it is on the remote — and the next merge here fast-forwards.
 */
export async function integrateWithSharedRemote(
  params: SharedRemoteIntegration,
): Promise<IntegrateRevisionResult> {
  const { remote, defaultBranch, branchName } = params;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    await syncDefaultBranch(params);
    await fetchRevisionBranch(params);
    const plan = await planIntegration(params);
    if (plan.strategy === 'already-merged') return { ...plan, updatedWorktree: null };
    await findCleanCheckout(params.repoRoot, defaultBranch);
    if ((await pushDefaultBranch(params, plan.mergedSHA)) === 'rejected') continue;
    return applyIntegration(params, plan).catch((error: unknown) => {
      params.warn(
        `${remote}'s ${defaultBranch} has ${branchName} (${plan.mergedSHA.slice(0, 12)}), but this clone's ${defaultBranch} could not follow; it does at the next merge here (or \`git pull --ff-only\`)`,
        error,
      );
      return { ...plan, updatedWorktree: null };
    });
  }
  throw new IntegrateRevisionError(
    `'${remote}' rejected the push of ${defaultBranch} ${ATTEMPTS} times: other machines merged into it meanwhile. ${branchName} was not merged anywhere and its item stays approved; run the merge again`,
  );
}
