export { detectDefaultBranch } from './detect-default-branch.ts';
export {
  AGENT_RUNTIMES,
  type AgentRuntimeKind,
  type CliRuntimeSettings,
  CONFIG_FILE_NAME,
  DEFAULT_ANSWER_AUTHOR_ASSOCIATIONS,
  DEFAULT_MENTION_TRIGGER,
  type FlotillaConfig,
  type FlotillaConfigFile,
  flotillaConfigFileSchema,
  GITHUB_AUTHOR_ASSOCIATIONS,
  type GitHubAuthorAssociation,
  LOG_LEVELS,
} from './flotilla-config-schema.ts';
export { type LoadConfigResult, loadConfig } from './load-config.ts';
export { type FlotillaPaths, resolveFlotillaPaths } from './resolve-flotilla-paths.ts';
