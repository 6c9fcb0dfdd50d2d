/** `FLOTILLA_PORT`, `FLOTILLA_PORT_1`…: a worktree's ports as the agent and its commands see them. */
export function buildPortEnv(ports: readonly number[] | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  (ports ?? []).forEach((port, index) => {
    env[index === 0 ? 'FLOTILLA_PORT' : `FLOTILLA_PORT_${index}`] = String(port);
  });
  return env;
}
