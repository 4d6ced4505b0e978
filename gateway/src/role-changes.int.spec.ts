/**
 * A role change reaches the gateway within a second: a new admin's old access token (role
 * participant) is renewed at her next request, and a revoked admin's token (role admin) is
 * no longer honoured, without waiting for it to expire and without signing her out.
 */
import { sessionCookieNames } from '@sleepweave/contracts';
import type { AddressInfo } from 'node:net';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import { createAccessTokenVerifier, createLogger, remoteKeySet, type ServiceApp } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newRegistration, startIdentity, type Identity } from '../../services/identity/src/test/helpers.ts';
import { grantAdmin } from '../../services/identity/src/users/commands.ts';
import { buildGateway } from './app.ts';
import { readGatewayConfig } from './config.ts';
import { followRevocations, RevocationList } from './revocations.ts';
import { followRoleChanges, RoleChanges } from './role-changes.ts';
import { createSessionResolver } from './session.ts';

const APP_URL = 'http://app.test';
let identity: Identity;
let gateway: ServiceApp;
let bus: Bus;
const watches: Subscription[] = [];

beforeAll(async () => {
  identity = await startIdentity({ HOST: '127.0.0.1' }, { listen: true });
  const identityUrl = `http://127.0.0.1:${(identity.app.server.address() as AddressInfo).port}`;
  const config = readGatewayConfig({
    ...process.env,
    PORT: '0',
    APP_URL,
    IDENTITY_URL: identityUrl,
    BUS_PREFIX: identity.deps.config.BUS_PREFIX,
    INTERNAL_TOKEN: identity.deps.config.INTERNAL_TOKEN,
    WEB_DIST: '/nonexistent',
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger('gateway', 'silent');
  bus = await connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'gateway-roles-test', logger });
  const revocations = new RevocationList(3_600_000);
  const roleChanges = new RoleChanges(3_600_000);
  watches.push(await followRevocations(bus, revocations, 3_600_000, logger));
  watches.push(await followRoleChanges(bus, roleChanges, 3_600_000, logger));
  const sessions = createSessionResolver({
    verifier: createAccessTokenVerifier(remoteKeySet(identityUrl)),
    revocations,
    roleChanges,
    identityUrl,
    internalToken: config.INTERNAL_TOKEN,
    cookieNames: sessionCookieNames(config.APP_URL),
  });
  gateway = await buildGateway({ config, logger, bus, sessions, revocations, upstreams: { identity: identityUrl } });
});

afterAll(async () => {
  await gateway?.close();
  for (const watch of watches) await watch.stop();
  await bus?.close();
  await identity?.cleanup();
});

type Cookies = Record<string, string>;

/** A browser's cookie jar for one user: every answer's cookies replace the old ones. */
async function signUp() {
  const body = newRegistration();
  const response = await gateway.inject({ method: 'POST', url: '/api/register', payload: body, headers: { origin: APP_URL } });
  expect(response.statusCode).toBe(201);
  const jar: Cookies = Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
  return { body, id: response.json().user.id as string, jar };
}

async function send(jar: Cookies, method: 'GET' | 'PUT', url: string, payload?: object) {
  const response = await gateway.inject({ method, url, cookies: jar, ...(payload ? { payload, headers: { origin: APP_URL } } : {}) });
  for (const cookie of response.cookies) jar[cookie.name] = cookie.value;
  return response;
}

const setRole = (jar: Cookies, userId: string, role: string) => send(jar, 'PUT', `/api/admin/users/${userId}/role`, { role });

describe('role changes at the gateway', () => {
  it('honours a granted role at once and stops honouring a revoked one within a second, without signing her out', async () => {
    const ana = await signUp();
    const bea = await signUp();
    expect((await setRole(ana.jar, bea.id, 'admin')).statusCode).toBe(403);

    // made an admin from the command line: her current token still says participant
    await grantAdmin(identity.context, ana.body.email);
    const grantedAt = Date.now();
    await expect.poll(async () => (await setRole(ana.jar, bea.id, 'admin')).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);
    console.log(`a granted role honoured after ${Date.now() - grantedAt} ms`);

    // Bea's token said participant when she was made admin: renewed at her next request
    await expect.poll(async () => (await setRole(bea.jar, ana.id, 'admin')).statusCode, { timeout: 5_000, interval: 50 }).toBe(200);
    const beaAdminToken = bea.jar.sw_access!;

    expect((await setRole(ana.jar, bea.id, 'participant')).statusCode).toBe(200);
    const revokedAt = Date.now();
    await expect.poll(async () => (await setRole(bea.jar, ana.id, 'admin')).statusCode, { timeout: 5_000, interval: 50 }).toBe(403);
    console.log(`a revoked role refused after ${Date.now() - revokedAt} ms`);
    // (identity refuses her at once too: under its role lock she is no admin any more) her
    // token is renewed, with her current role, once the gateway has learnt of the change
    await expect
      .poll(
        async () => {
          await send(bea.jar, 'GET', '/api/user');
          return bea.jar.sw_access !== beaAdminToken;
        },
        { timeout: 5_000, interval: 50 },
      )
      .toBe(true);
    expect((await send(bea.jar, 'GET', '/api/user')).json().role).toBe('participant'); // still signed in

    // her old admin token, replayed, is refused too (its signature and expiry are fine)
    const replayed = await gateway.inject({
      method: 'PUT',
      url: `/api/admin/users/${ana.id}/role`,
      cookies: { sw_access: beaAdminToken },
      payload: { role: 'admin' },
      headers: { origin: APP_URL },
    });
    expect(replayed.statusCode).toBe(401);
  });
});
