import { resolveClusterDatabaseUrl } from '../cluster/resolve-cluster-database-url.ts';
import type { FlotillaConfig } from '../config/index.ts';
import { openPostgresState, type SqlConnection } from '../storage/index.ts';

/**
 * Cluster mode (`cluster.postgres` set): the PostgreSQL connection the engine's state lives in (run history,
 * budget ledger, parkings, waiting sessions, planned specs, task context, proposals, memories, notes,
 * conversations, errors: src/storage/README.md "Two backends"), migrated; undefined on one machine. A variable that is unset or holds no PostgreSQL URL, or a server that does not answer, throws
 * naming it.
 */
export function openClusterState(
  config: Pick<FlotillaConfig, 'cluster'>,
  env: Readonly<Record<string, string | undefined>>,
): SqlConnection | undefined {
  if (config.cluster === undefined) return undefined;
  const resolved = resolveClusterDatabaseUrl(config.cluster.postgres, env);
  if (!resolved.ok) throw new Error(`cluster state: ${resolved.problem}`);
  return openPostgresState(resolved.url);
}
