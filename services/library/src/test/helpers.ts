import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, type LibraryArticleInput, type Role } from '@sleepweave/contracts';
import { createAccessTokenVerifier } from '@sleepweave/service-kit';
import { startTestService, testEnv } from '@sleepweave/service-kit/testing';
import { readLibraryConfig } from '../config.ts';
import { libraryService } from '../service.ts';

/**
 * Access tokens for tests, shaped exactly like identity's (ES256, iss, aud, sub, sid, role,
 * exp), signed with a key made here. The service under test verifies them with that key
 * instead of fetching identity's JWKS, so library tests need no identity service.
 */
const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const KID = 'library-test';

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function accessToken(role: Role, userId: string = randomUUID()): string {
  const now = Math.floor(Date.now() / 1000);
  const header = base64url(JSON.stringify({ alg: 'ES256', typ: 'JWT', kid: KID }));
  const payload = base64url(
    JSON.stringify({
      sub: userId,
      sid: randomUUID(),
      role,
      iss: ACCESS_TOKEN_ISSUER,
      aud: ACCESS_TOKEN_AUDIENCE,
      iat: now,
      exp: now + 900,
    }),
  );
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${header}.${payload}.${base64url(signature)}`;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The library service as production starts it, but trusting the test signing key. */
export const testLibraryService = {
  ...libraryService,
  verifier: () => createAccessTokenVerifier(async () => publicKey),
};

export async function startLibrary(env: NodeJS.ProcessEnv = {}, options: { background?: boolean; listen?: boolean } = {}) {
  return startTestService(testLibraryService, readLibraryConfig(testEnv(env)), options);
}
export type Library = Awaited<ReturnType<typeof startLibrary>>;

/** A valid article for the admin API; each call gets unique words so searches find only it. */
export function newArticle(overrides: Partial<LibraryArticleInput> = {}): LibraryArticleInput {
  return {
    category: 'Sleep tips',
    title: 'Evening rituals for calmer nights',
    summary: 'A short guide to winding down.',
    bodyHtml: '<h2>Why it helps</h2><p>A calm evening helps the body prepare for sleep.</p><ul><li>Dim the lights</li></ul>',
    imagePath: '/api/library/images/breathing.svg',
    tags: ['wind-down'],
    ...overrides,
  };
}

/** A made-up word no article contains (letters only, so it is one search word). */
export function uniqueWord(prefix = 'zq'): string {
  return `${prefix}${randomUUID()
    .replace(/[^a-f]/g, '')
    .slice(0, 10)}`;
}
