/** The variable `cluster.postgres` names, and its value when it holds a PostgreSQL URL. */
export type ClusterDatabaseUrl =
  | { ok: true; variable: string; url: string }
  | { ok: false; variable: string; problem: string };

/**
 * Reads the PostgreSQL URL from the environment variable `cluster.postgres` references (`$NAME` or
 * `${NAME}`; the config schema allows nothing else, so the file never holds the password).
 */
export function resolveClusterDatabaseUrl(
  reference: string,
  env: Readonly<Record<string, string | undefined>>,
): ClusterDatabaseUrl {
  const variable = reference.replace(/^\$\{?|\}$/g, '');
  const url = env[variable];
  if (url === undefined || url === '')
    return { ok: false, variable, problem: `$${variable} (cluster.postgres) is not set` };
  if (!/^postgres(?:ql)?:\/\//.test(url))
    return {
      ok: false,
      variable,
      problem: `$${variable} (cluster.postgres) is not a PostgreSQL URL (expected postgres://user@host:port/database)`,
    };
  return { ok: true, variable, url };
}
