/**
 * No secret reaches a log line, at any level: a whole password-reset flow through the
 * gateway and identity, every line both write at `trace`, searched for the reset token,
 * the passwords, the session's tokens and the internal token.
 */
import { sessionCookieNames } from '@sleepweave/contracts';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import { createAccessTokenVerifier, createLogger, remoteKeySet, type ServiceApp } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetLinkIn, startMailCatcher, type MailCatcher } from '../../services/identity/src/test/mail-catcher.ts';
import { newRegistration, startIdentity, type Identity } from '../../services/identity/src/test/helpers.ts';
import { buildGateway } from './app.ts';
import { readGatewayConfig } from './config.ts';
import { followRevocations, RevocationList } from './revocations.ts';
import { createSessionResolver } from './session.ts';

const APP_URL = 'http://app.test';
const lines: string[] = [];
const sink = () =>
  new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });

let mail: MailCatcher;
let identity: Identity;
let gateway: ServiceApp;
let bus: Bus;
let following: Subscription;

beforeAll(async () => {
  mail = await startMailCatcher();
  identity = await startIdentity(
    { HOST: '127.0.0.1', SMTP_URL: mail.url, FORGOT_PASSWORD_MIN_RESPONSE_MS: '0' },
    { listen: true, logger: createLogger('identity', 'trace', 'json', sink()) },
  );
  const identityUrl = `http://127.0.0.1:${(identity.app.server.address() as AddressInfo).port}`;
  const webDist = await mkdtemp(join(tmpdir(), 'sw-web-'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Sleepweave</title>');
  const config = readGatewayConfig({
    ...process.env,
    PORT: '0',
    APP_URL,
    IDENTITY_URL: identityUrl,
    BUS_PREFIX: identity.deps.config.BUS_PREFIX,
    INTERNAL_TOKEN: identity.deps.config.INTERNAL_TOKEN,
    WEB_DIST: webDist,
  });
  const logger = createLogger('gateway', 'trace', 'json', sink());
  bus = await connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'gateway-test', logger });
  const revocations = new RevocationList(3_600_000);
  following = await followRevocations(bus, revocations, 3_600_000, logger);
  const sessions = createSessionResolver({
    verifier: createAccessTokenVerifier(remoteKeySet(identityUrl)),
    revocations,
    identityUrl,
    internalToken: config.INTERNAL_TOKEN,
    cookieNames: sessionCookieNames(config.APP_URL),
  });
  gateway = await buildGateway({ config, logger, bus, sessions, revocations, upstreams: { identity: identityUrl } });
  await gateway.ready();
});

afterAll(async () => {
  await gateway?.close();
  await following?.stop();
  await bus?.close();
  await identity?.cleanup();
  await mail?.close();
});

const cookiesOf = (response: { cookies: { name: string; value: string }[] }) =>
  Object.fromEntries(response.cookies.map((c) => [c.name, c.value])) as Record<string, string>;

describe('the logs of a password reset', () => {
  it('hold no reset token, password, session token or internal token', async () => {
    const headers = { origin: APP_URL };
    const body = newRegistration();
    const registered = await gateway.inject({ method: 'POST', url: '/api/register', payload: body, headers });
    expect(registered.statusCode).toBe(201);
    const session = cookiesOf(registered);

    // a renewal through identity's internal route (the access token has "expired")
    const renewed = await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_session: session.sw_session! } });
    expect(renewed.statusCode).toBe(200);

    const forgot = await gateway.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: body.email }, headers });
    expect(forgot.statusCode).toBe(200);
    const token = new URL(resetLinkIn(await mail.waitForMail(body.email.toLowerCase()))).searchParams.get('token')!;
    const valid = await gateway.inject({ method: 'GET', url: `/api/validate-reset-token?token=${encodeURIComponent(token)}` });
    expect(valid.statusCode).toBe(200);
    const newPassword = 'a brand new long passphrase';
    const reset = await gateway.inject({ method: 'POST', url: '/api/reset-password', payload: { token, password: newPassword }, headers });
    expect(reset.statusCode).toBe(200);
    const again = await gateway.inject({ method: 'GET', url: `/api/validate-reset-token?token=${encodeURIComponent(token)}` });
    expect(again.statusCode).toBe(400); // used: a failing request is logged too
    const signedIn = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: body.email, password: newPassword },
      headers,
    });
    expect(signedIn.statusCode).toBe(200);
    const after = cookiesOf(signedIn);
    expect((await gateway.inject({ method: 'POST', url: '/api/logout', payload: {}, cookies: after, headers })).statusCode).toBe(200);

    const logged = lines.join('');
    expect(lines.length).toBeGreaterThan(20); // trace-level lines of both processes
    for (const secret of [
      token,
      encodeURIComponent(token),
      body.password,
      newPassword,
      session.sw_access!,
      session.sw_session!,
      after.sw_access!,
      after.sw_session!,
      identity.deps.config.INTERNAL_TOKEN,
    ]) {
      expect(logged).not.toContain(secret);
    }
    expect(logged).toContain('/api/validate-reset-token?token=[redacted]');
  });

  it('say the same of a wrong password for a registered and an unknown e-mail (a log tells no more of who is registered than an answer)', async () => {
    const headers = { origin: APP_URL };
    const body = newRegistration();
    expect((await gateway.inject({ method: 'POST', url: '/api/register', payload: body, headers })).statusCode).toBe(201);
    const refusal = async (email: string) => {
      const from = lines.length;
      const answer = await gateway.inject({ method: 'POST', url: '/api/login', payload: { email, password: 'not her password' }, headers });
      expect(answer.statusCode).toBe(401);
      const refused = lines
        .slice(from)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry.msg === 'sign-in refused');
      expect(refused).toHaveLength(1);
      const { time: _time, reqId: _reqId, correlationId: _correlationId, pid: _pid, ...rest } = refused[0]!;
      return rest;
    };
    expect(await refusal(body.email)).toEqual(await refusal(`nobody.${Date.now()}@example.com`));
  });
});
