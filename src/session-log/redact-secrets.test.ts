import { describe, expect, it } from 'vitest';
import { createSecretRedactor, isSecretEnvName, redact } from './redact-secrets.ts';

describe('isSecretEnvName', () => {
  it.each([
    'ANTHROPIC_API_KEY',
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'NPM_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_SESSION_TOKEN',
    'CLIENT_SECRET',
    'DB_PASSWORD',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'TOKEN',
    'anthropic_api_key',
  ])('treats %s as secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it.each(['HOME', 'PATH', 'KEYBOARD', 'TOKENIZER_PATH', 'MONKEY', 'ANTHROPIC_BASE_URL', 'SECRETARY'])(
    'treats %s as ordinary',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false);
    },
  );
});

describe('redact', () => {
  it('replaces every occurrence of a secret value with the variable name', () => {
    const env = { GITHUB_TOKEN: 'ghp_abcdefghijklmnop', HOME: '/home/flotilla' };
    expect(redact('a ghp_abcdefghijklmnop b ghp_abcdefghijklmnop in /home/flotilla', env)).toBe(
      'a [REDACTED:GITHUB_TOKEN] b [REDACTED:GITHUB_TOKEN] in /home/flotilla',
    );
  });

  it('leaves short values alone (they are not credentials, and replacing them would garble text)', () => {
    expect(redact('value 1 and abc', { SOME_KEY: '1', OTHER_TOKEN: 'abc' })).toBe('value 1 and abc');
  });

  it('replaces the longest secret first when one contains another', () => {
    const env = { SHORT_TOKEN: 'abcdefgh', LONG_TOKEN: 'abcdefgh-ijklmnop' };
    expect(redact('abcdefgh-ijklmnop / abcdefgh', env)).toBe(
      '[REDACTED:LONG_TOKEN] / [REDACTED:SHORT_TOKEN]',
    );
  });

  it('returns text unchanged when the environment has no secrets', () => {
    const redactor = createSecretRedactor({ PATH: '/usr/bin:/bin' });
    expect(redactor('PATH=/usr/bin:/bin')).toBe('PATH=/usr/bin:/bin');
  });
});

describe('redact: credentials the deny-list scrub missed', () => {
  it('redacts variables named like credentials beyond KEY and TOKEN', () => {
    for (const name of [
      'SENDGRID_APIKEY',
      'MYSQL_PWD',
      'CI_JOB_JWT',
      'SENTRY_DSN',
      'SLACK_WEBHOOK_URL',
      'AZURE_STORAGE_CONNECTION_STRING',
      'DOCKER_AUTH_CONFIG',
      'JWT_SIGNING_KEY',
    ]) {
      expect(isSecretEnvName(name), name).toBe(true);
    }
  });

  it('redacts URLs with a password and their password alone, whatever the variable is called', () => {
    const env = {
      DATABASE_URL: 'postgres://app:planted-db-password@db.internal:5432/app',
      REDIS_URL: 'redis://:planted-redis-password@cache.internal:6379/0',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000',
      STORAGE: 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=plantedazurekey==',
    };
    const text = [
      'connecting to postgres://app:planted-db-password@db.internal:5432/app',
      'auth planted-redis-password',
      'model at http://127.0.0.1:4000',
      'conn DefaultEndpointsProtocol=https;AccountName=a;AccountKey=plantedazurekey==',
    ].join('\n');
    expect(redact(text, env)).toBe(
      [
        'connecting to [REDACTED:DATABASE_URL]',
        'auth [REDACTED:REDIS_URL]',
        'model at http://127.0.0.1:4000',
        'conn [REDACTED:STORAGE]',
      ].join('\n'),
    );
  });
});
