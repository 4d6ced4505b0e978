import { createHash, randomBytes } from 'node:crypto';
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER, type Role } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type CryptoKey, createLocalJWKSet, type JWTVerifyGetKey } from 'jose';

const ALGORITHM = 'ES256';

export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  /** The public keys as a JWKS document (served at /.well-known/jwks.json). */
  jwks: { keys: JWK[] };
  /** Verifies with the local public keys (identity does not fetch its own JWKS). */
  keySet: JWTVerifyGetKey;
}

/**
 * Loads the newest signing key from the database, creating one on the first start.
 * Every identity instance signs with the same key, and tokens survive restarts.
 */
export async function loadSigningKeys(sql: Sql): Promise<SigningKeys> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('identity_signing_keys'))`;
    const [existing] = await tx`select kid from signing_keys limit 1`;
    if (existing) return;
    const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
    const kid = randomBytes(8).toString('hex');
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: ALGORITHM };
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
    await tx`insert into signing_keys (kid, private_jwk, public_jwk) values (${kid}, ${tx.json(privateJwk)}, ${tx.json(publicJwk)})`;
  });
  const rows = await sql<{ kid: string; private_jwk: JWK; public_jwk: JWK }[]>`
    select kid, private_jwk, public_jwk from signing_keys order by created_at desc`;
  const newest = rows[0]!;
  const privateKey = (await importJWK(newest.private_jwk, ALGORITHM)) as CryptoKey;
  const jwks = { keys: rows.map((row) => row.public_jwk) };
  return { kid: newest.kid, privateKey, jwks, keySet: createLocalJWKSet(jwks) };
}

export async function signAccessToken(
  keys: SigningKeys,
  claims: { userId: string; sessionId: string; role: Role },
  ttlSeconds: number,
  now: Date = new Date(),
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId, role: claims.role })
    .setProtectedHeader({ alg: ALGORITHM, kid: keys.kid, typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ACCESS_TOKEN_ISSUER)
    .setAudience(ACCESS_TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ttlSeconds)
    .sign(keys.privateKey);
}

/** An opaque refresh token (256 bits from the CSPRNG); only its hash is stored. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
