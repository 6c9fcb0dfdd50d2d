/**
 * The tracker commands through the provider contract (contract-tracker-commands.ts), loaded on use: a
 * provider without a local tracker runs them.
 */
export async function loadContractTrackerCommands() {
  const { contractTrackerCommands } = await import('./contract-tracker-commands.ts');
  return contractTrackerCommands;
}
