export { type FlotillaPaths, resolveFlotillaPaths } from '../shared/resolve-flotilla-paths.ts';
export { detectDefaultBranch } from './detect-default-branch.ts';
export {
  AGENT_RUNTIMES,
  type AgentRuntimeKind,
  type CliRuntimeSettings,
  type ClusterSettings,
  CONFIG_FILE_NAME,
  type FlotillaConfig,
  type FlotillaConfigFile,
  flotillaConfigFileSchema,
  LOG_LEVELS,
} from './flotilla-config-schema.ts';
export { type LoadConfigResult, loadConfig } from './load-config.ts';
