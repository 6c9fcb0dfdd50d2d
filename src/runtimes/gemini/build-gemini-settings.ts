/**
 * The user `settings.json` a run's GEMINI_CLI_HOME gets (`<home>/.gemini/settings.json`): API-key auth (the
 * only one a sandboxed run can use), no telemetry, usage statistics, update checks or update nags (nothing
 * leaves the machine but model requests), folder trust off (the worktree is the run's own), and the shell tool
 * without a pseudo-terminal (its optional node-pty is not built: see `README.md`).
 */
export function buildGeminiSettings(): Record<string, unknown> {
  return {
    security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    tools: { shell: { enableInteractiveShell: false } },
  };
}
