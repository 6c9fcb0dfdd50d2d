import { resolveClusterDatabaseUrl } from '../cluster/resolve-cluster-database-url.ts';
import { CONTROLLER_LEASE } from '../cluster/start-controller-leadership.ts';
import type { FlotillaConfig } from '../config/index.ts';
import { openPostgresState, type SqlConnection } from '../storage/index.ts';
import type { HeldLeadership } from './await-cluster-leadership.ts';
import { fenceStateConnection } from './fence-state-connection.ts';

/**
 * Cluster mode (`cluster.postgres` set): the PostgreSQL connection the engine's state lives in (run history,
 * budget ledger, parkings, waiting sessions, planned specs, task context, proposals, memories, notes,
 * conversations, errors, and the local tracker: src/storage/README.md "Two backends"), migrated; undefined on
 * one machine. A variable that is unset or holds no PostgreSQL URL, or a server that does not answer, throws
 * naming it. The leading controller passes its lease (`held`): every statement is then fenced by it
 * (src/app/fence-state-connection.ts) and a refused one deposes it; CLI commands read and write without one.
 */
export function openClusterState(
  config: Pick<FlotillaConfig, 'cluster'>,
  env: Readonly<Record<string, string | undefined>>,
  held?: HeldLeadership | null,
): SqlConnection | undefined {
  if (config.cluster === undefined) return undefined;
  const resolved = resolveClusterDatabaseUrl(config.cluster.postgres, env);
  if (!resolved.ok) throw new Error(`cluster state: ${resolved.problem}`);
  const sql = openPostgresState(resolved.url);
  if (held === undefined || held === null) return sql;
  const { leadership, token } = held;
  return fenceStateConnection(sql, {
    name: CONTROLLER_LEASE,
    holder: leadership.holder,
    token,
    leading: () => leadership.leading() === token,
    onLost: (error) => leadership.depose(`a state write was refused: ${error.message}`),
  });
}
