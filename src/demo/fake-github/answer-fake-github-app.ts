import { randomBytes, verify } from 'node:crypto';
import { DOCS } from './create-fake-github-store.ts';

/** The GitHub App the fake serves (`FakeGitHubOptions.app`). */
export interface FakeGitHubApp {
  id: number;
  slug: string;
  installationId: number;
  publicKey: string;
  tokenLifetimeSeconds?: number | undefined;
}

/** The App's endpoints: a JWT (RS256, `iss` the App's id, at most 10 minutes long) or 401, as GitHub does. */
export function answerApp(
  app: FakeGitHubApp,
  method: string,
  path: string,
  jwt: string,
): { status: number; body: unknown } {
  const valid = isValidAppJwt(app, jwt);
  if (!valid) {
    return {
      status: 401,
      body: { message: 'A JSON web token could not be decoded', documentation_url: DOCS, status: '401' },
    };
  }
  if (method === 'GET' && path === '/app') {
    return {
      status: 200,
      body: { id: app.id, slug: app.slug, name: app.slug, owner: { login: 'acme', id: 3 }, permissions: {} },
    };
  }
  const installation = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path);
  if (method !== 'POST' || installation === null || Number(installation[1]) !== app.installationId) {
    return { status: 404, body: { message: 'Not Found', documentation_url: DOCS, status: '404' } };
  }
  return {
    status: 201,
    body: {
      token: `ghs_${randomBytes(18).toString('hex')}`,
      expires_at: new Date(Date.now() + (app.tokenLifetimeSeconds ?? 3600) * 1000).toISOString(),
      permissions: {
        issues: 'write',
        pull_requests: 'write',
        contents: 'write',
        checks: 'read',
        metadata: 'read',
      },
      repository_selection: 'selected',
    },
  };
}

/** Whether the JWT is the App's: RS256, signed with its key, `iss` its id, issued by now, at most 10 minutes. */
function isValidAppJwt(app: FakeGitHubApp, jwt: string): boolean {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  const claims = decodeJSON(payload);
  const now = Math.floor(Date.now() / 1000);
  return (
    decodeJSON(header)?.alg === 'RS256' &&
    verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      app.publicKey,
      Buffer.from(signature, 'base64url'),
    ) &&
    claims !== null &&
    String(claims.iss) === String(app.id) &&
    typeof claims.iat === 'number' &&
    typeof claims.exp === 'number' &&
    claims.iat <= now + 60 &&
    claims.exp > now &&
    claims.exp - claims.iat <= 600
  );
}

function decodeJSON(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
