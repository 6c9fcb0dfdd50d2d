/**
 * Test support: credentials of the kinds a developer's shell holds, as the guards' issue found them passing
 * a deny-list scrub (none ends in TOKEN or PASSWORD). Plant them in the environment an agent's is built
 * from, and check none reaches the agent.
 */
export const PLANTED_SECRETS: Readonly<Record<string, string>> = {
  DATABASE_URL: 'postgres://app:planted-db-password@db.internal:5432/app',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/plantedwebhooksecret',
  SSH_AUTH_SOCK: '/tmp/ssh-planted/agent.1234',
  STRIPE_SECRET_KEY: 'sk_live_planted_stripe_secret',
  SENDGRID_APIKEY: 'SG.planted-sendgrid-apikey',
  MYSQL_PWD: 'planted-mysql-password',
  SENTRY_DSN: 'https://plantedsentrykey@o0.ingest.sentry.io/0',
  REDIS_URL: 'redis://:planted-redis-password@cache.internal:6379/0',
  AZURE_STORAGE_CONNECTION_STRING:
    'DefaultEndpointsProtocol=https;AccountName=planted;AccountKey=plantedazurekey==;EndpointSuffix=core.windows.net',
  JWT_SIGNING_KEY: 'planted-jwt-signing-key',
  CI_JOB_JWT: 'eyJhbGciOiJSUzI1NiJ9.planted.jwt',
  DOCKER_AUTH_CONFIG: '{"auths":{"registry.internal":{"auth":"cGxhbnRlZDpwYXNzd29yZA=="}}}',
  GITHUB_TOKEN: 'ghp_plantedgithubtoken',
  FLOTILLA_GITHUB_TOKEN: 'ghp_plantedflotillatoken',
  NPM_TOKEN: 'npm_plantednpmtoken',
  AWS_SECRET_ACCESS_KEY: 'planted/aws/secret/access/key',
  HTTPS_PROXY: 'http://user:planted-proxy-password@proxy.internal:3128',
  CODEX_HOME: '/home/dev/.codex',
  NODE_OPTIONS: '--require /tmp/planted.js',
};
