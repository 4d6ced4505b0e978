import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import { testEnvelope } from '@sleepweave/bus/testing';
import {
  sessionCookieNames,
  SIGNED_IN_AS_SOMEONE_ELSE,
  SIGNED_IN_USER_HEADER,
  NOT_CONFIRMED_MESSAGE,
  TEMPORARILY_UNAVAILABLE_MESSAGE,
} from '@sleepweave/contracts';
import { createAccessTokenVerifier, createLogger, remoteKeySet, type ServiceApp } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newRegistration, startIdentity, type Identity } from '../../services/identity/src/test/helpers.ts';
import { buildGateway } from './app.ts';
import { readGatewayConfig } from './config.ts';
import { LIVE_PAUSED_MESSAGE } from './community-live.ts';
import type { GatewayDeps } from './deps.ts';
import { followRevocations, RevocationList } from './revocations.ts';
import { createSessionResolver } from './session.ts';
import { startGateway } from './start.ts';

const APP_URL = 'http://app.localhost';
let identity: Identity;
let gateway: ServiceApp;
let gatewayDeps: GatewayDeps;
let bus: Bus;
let following: Subscription;
let baseUrl: string;
let library: Server;
/** Changes the stand-in service never answers (it hangs), until the test lets them go. */
const heldChanges: ServerResponse[] = [];
/** What the stand-in library service answers (by default): JSON well over the 1 KB compression threshold. */
const CARDS = { articles: Array.from({ length: 60 }, (_, i) => ({ id: i, title: `Linen and the night, part ${i}` })) };
const APP_JS = 'console.log("app")'.repeat(100);
/** Items of the stand-in's streamed answer: about 150 KB of JSON. */
const STREAMED_ITEMS = 6_000;
/** Settles when the stand-in's endless answer is hung up on. */
let endlessHungUp: () => void;
const endlessClosed = new Promise<void>((resolve) => (endlessHungUp = resolve));
let releaseHeldCsv: () => void;
const heldCsvReleased = new Promise<void>((resolve) => (releaseHeldCsv = resolve));
/** Requests the stand-in library service received, by path. */
const libraryHits = new Map<string, number>();

beforeAll(async () => {
  // every test signs up its own participant from the same address
  identity = await startIdentity({ HOST: '127.0.0.1', REGISTER_RATE_LIMIT_PER_IP: '100' }, { listen: true });
  const identityUrl = `http://127.0.0.1:${(identity.app.server.address() as AddressInfo).port}`;
  const webDist = await mkdtemp(join(tmpdir(), 'sw-web-'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Sleepweave</title><div id="root"></div>');
  await mkdir(join(webDist, 'assets'));
  await writeFile(join(webDist, 'assets', 'index-Ab12Cd34.js'), APP_JS);
  // as web/precompress.ts leaves it beside the file at build time
  await writeFile(join(webDist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(APP_JS));
  library = createServer((request, response) => {
    const path = request.url?.split('?')[0];
    libraryHits.set(path ?? '', (libraryHits.get(path ?? '') ?? 0) + 1);
    if (path === '/api/community/echo' || path === '/api/user' || path === '/api/logout') {
      // what reached the service: its headers and its body
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ headers: request.headers, body })),
      );
      return;
    }
    if (path === '/api/library/hop') {
      // headers about the service's own connection to the gateway
      response.writeHead(200, {
        'content-type': 'application/json',
        connection: 'close, x-hop',
        'x-hop': 'service',
        'keep-alive': 'timeout=1',
      });
      response.end('{"ok":true}');
      return;
    }
    if (path === '/api/library/stream') {
      // an answer of unknown size (chunked), larger than the gateway reads whole
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      for (let i = 0; i < STREAMED_ITEMS; i++) response.write(`${i === 0 ? '' : ','}${JSON.stringify({ id: i, text: 'linen' })}`);
      response.end(']');
      return;
    }
    if (path === '/api/library/images/linen.png') {
      // what is not personal, the service may let browsers keep
      response
        .writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400' })
        .end(Buffer.from([137, 80, 78, 71]));
      return;
    }
    if (path === '/api/library/endless') {
      // an answer that goes on until someone hangs up (a long export, say)
      response.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => response.write('"linen",'.repeat(1000)), 5);
      response.on('close', () => {
        clearInterval(timer);
        endlessHungUp();
      });
      return;
    }
    if (path === '/api/library/held.csv') {
      // a long export, as the admin's CSVs are (rows of varied numbers): 3 MB written, then
      // held open until the test lets it end
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      let row = 0;
      let written = 0;
      const more = () => {
        while (written < 3_000_000) {
          const rows: string[] = [];
          for (let i = 0; i < 500; i++, row++)
            rows.push(
              `SW-${String(row % 1500).padStart(8, '0')},2026-${1 + (row % 12)}-${1 + (row % 28)},${(row * 7919) % 100},${(row * 104_729) % 480}\n`,
            );
          const chunk = rows.join('');
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        void heldCsvReleased.then(() => response.end());
      };
      more();
      return;
    }
    if (path === '/api/library/broken') {
      // the service dies half way through its answer
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"articles":[');
      setTimeout(() => response.destroy(), 20);
      return;
    }
    if (path === '/api/community/message' && request.method === 'POST') {
      // a service that hangs (a process stopped): the change is never answered
      heldChanges.push(response);
      return;
    }
    if (path === '/api/library/slow') {
      // answered after 600 ms: longer than the test's time for a change, as a slow read may be
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{"slow":true}'), 600);
      return;
    }
    if (path === '/api/library/busy') {
      response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '7' });
      response.end(JSON.stringify({ error: 'unavailable', message: 'The library is busy.' }));
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CARDS));
  });
  await new Promise<void>((resolve) => library.listen(0, '127.0.0.1', resolve));

  const config = readGatewayConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    APP_URL,
    IDENTITY_URL: identityUrl,
    BUS_PREFIX: identity.deps.config.BUS_PREFIX,
    INTERNAL_TOKEN: identity.deps.config.INTERNAL_TOKEN,
    WEB_DIST: webDist,
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger('gateway', 'silent');
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
  // journal "runs" where nothing listens: a service that is down
  const upstreams = {
    identity: identityUrl,
    journal: 'http://127.0.0.1:9',
    library: `http://127.0.0.1:${(library.address() as AddressInfo).port}`,
    // the same stand-in, for a route that takes writes with a session
    community: `http://127.0.0.1:${(library.address() as AddressInfo).port}`,
  };
  gatewayDeps = { config, logger, bus, sessions, revocations, upstreams };
  gateway = await buildGateway(gatewayDeps);
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await gateway?.close();
  library?.close();
  await following?.stop();
  await bus?.close();
  await identity?.cleanup();
});

const json = { 'content-type': 'application/json' };

async function signUp() {
  const body = newRegistration();
  const response = await gateway.inject({ method: 'POST', url: '/api/register', payload: body, headers: { origin: APP_URL } });
  expect(response.statusCode).toBe(201);
  const cookies = Object.fromEntries(response.cookies.map((c) => [c.name, c.value]));
  return { body, cookies: cookies as { sw_access: string; sw_session: string } };
}

describe('gateway routing', () => {
  it('routes /api to identity and carries the session from the cookie', async () => {
    const { body, cookies } = await signUp();
    const me = await gateway.inject({ method: 'GET', url: '/api/user', cookies });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(body.email.toLowerCase());
    expect(me.headers['x-correlation-id']).toBeTruthy();
  });

  it('answers 401 on a guarded route without a session', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/api/auth/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'unauthorized', message: 'You are not signed in.' });
  });

  it("refuses a tab opened for another user (her sign-out and someone else's sign-in in another tab), leaving the session as it is", async () => {
    const { cookies } = await signUp();
    const { id } = (await gateway.inject({ method: 'GET', url: '/api/user', cookies })).json<{ id: string }>();
    const as = (openedFor?: string) =>
      gateway.inject({ method: 'GET', url: '/api/auth/user', cookies, headers: openedFor ? { [SIGNED_IN_USER_HEADER]: openedFor } : {} });
    const refused = await as(randomUUID());
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ error: 'unauthorized', message: SIGNED_IN_AS_SOMEONE_ELSE });
    expect(refused.cookies).toEqual([]);
    expect((await as(id)).statusCode).toBe(200);
    expect((await as()).statusCode).toBe(200);
  });

  it('renews an expired access token from the refresh cookie and sends the new cookie', async () => {
    const { cookies } = await signUp();
    const response = await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_session: cookies.sw_session } });
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((c) => c.name === 'sw_access')?.value).toBeTruthy();
  });

  it('does not expose internal routes or unknown paths', async () => {
    const internal = await gateway.inject({
      method: 'POST',
      url: '/internal/session/refresh',
      payload: { refreshToken: 'x' },
      headers: { origin: APP_URL },
    });
    expect(internal.statusCode).toBe(404);
    const unknown = await gateway.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
  });

  it('serves the SPA for other paths, with a CSP and security headers', async () => {
    const page = await gateway.inject({ method: 'GET', url: '/some/deep/link' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // HEAD (a link checker, an uptime probe) finds the page too
    const head = await gateway.inject({ method: 'HEAD', url: '/some/deep/link' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/text\/html/);
    expect(head.body).toBe('');
  });

  it('renews an expired access token from the refresh cookie and rotates that cookie', async () => {
    const { cookies } = await signUp();
    const renewed = await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_session: cookies.sw_session } });
    expect(renewed.statusCode).toBe(200);
    const set = Object.fromEntries(renewed.cookies.map((c) => [c.name, c.value]));
    expect(set.sw_access).toBeTruthy();
    expect(set.sw_session).toBeTruthy();
    expect(set.sw_session).not.toBe(cookies.sw_session);
    // the new one works; much later the old one would end the session (identity's tests)
    expect((await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_session: set.sw_session! } })).statusCode).toBe(200);
  });
});

describe('proxying', () => {
  it("forwards what the service needs, not the client's connection headers or credentials it may not choose", async () => {
    const { cookies } = await signUp();
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/community/echo',
      cookies,
      headers: {
        origin: APP_URL,
        // a client's connection headers (an HTTP/1.0 client's Keep-Alive, curl's Expect for a larger body)
        expect: '100-continue',
        'keep-alive': 'timeout=5',
        connection: 'keep-alive, x-client-hop',
        'x-client-hop': 'for the gateway only',
        authorization: 'Bearer forged',
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-port': '8443',
        forwarded: 'for=203.0.113.9;host=evil.example;proto=https',
        'x-real-ip': '203.0.113.9',
        'x-internal-token': 'guessed-internal-token-0123456789',
        'accept-language': 'en-GB',
      },
      payload: { title: 'Linen' },
    });
    expect(response.statusCode).toBe(200);
    const { headers, body } = response.json() as { headers: Record<string, string>; body: string };
    for (const name of [
      'expect',
      'keep-alive',
      'x-client-hop',
      'cookie',
      'x-forwarded-host',
      'x-forwarded-proto',
      'x-forwarded-port',
      'forwarded',
      'x-real-ip',
      'x-internal-token',
    ]) {
      expect(headers[name], name).toBeUndefined();
    }
    expect(headers.connection).not.toContain('x-client-hop');
    expect(headers.authorization).toBe(`Bearer ${cookies.sw_access}`);
    expect(headers['x-forwarded-for']).not.toBe('203.0.113.9');
    expect(headers['x-correlation-id']).toBe(response.headers['x-correlation-id']);
    expect(headers['accept-language']).toBe('en-GB');
    expect(JSON.parse(body)).toEqual({ title: 'Linen' });
    expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
  });

  it('sends her cookies (her refresh token) only to the route that reads one', async () => {
    const { cookies } = await signUp();
    // a gateway whose identity is the stand-in, which answers with what reached it
    const echoing = await buildGateway({
      ...gatewayDeps,
      upstreams: { ...gatewayDeps.upstreams, identity: gatewayDeps.upstreams.community! },
    });
    try {
      const reached = async (method: 'GET' | 'POST', url: string) => {
        const response = await echoing.inject({
          method,
          url,
          cookies,
          headers: { origin: APP_URL },
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        expect(response.statusCode, url).toBe(200);
        return (response.json() as { headers: Record<string, string> }).headers;
      };
      const user = await reached('GET', '/api/user');
      expect(user.cookie).toBeUndefined();
      expect(user.authorization).toBe(`Bearer ${cookies.sw_access}`);
      expect((await reached('POST', '/api/logout')).cookie).toContain(`sw_session=${cookies.sw_session}`);
    } finally {
      await echoing.close();
    }
  });

  it("keeps the service's connection headers off the client's connection", async () => {
    const { cookies } = await signUp();
    const { status, headers } = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl);
      const cookie = `sw_access=${cookies.sw_access}`;
      const req = httpRequest({ hostname, port, path: '/api/library/hop', headers: { cookie, connection: 'keep-alive' } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    expect(headers['x-hop']).toBeUndefined();
    expect(headers.connection).toBe('keep-alive');
    expect(headers['keep-alive']).not.toBe('timeout=1');
  });

  it('streams an answer of unknown size through whole, compressed when the browser accepts it', async () => {
    const { cookies } = await signUp();
    const plain = await gateway.inject({ method: 'GET', url: '/api/library/stream', cookies });
    expect(plain.statusCode).toBe(200);
    expect((plain.json() as unknown[]).length).toBe(STREAMED_ITEMS);
    expect(plain.headers['cache-control']).toBe('no-store');
    const compressed = await gateway.inject({ method: 'GET', url: '/api/library/stream', cookies, headers: { 'accept-encoding': 'br' } });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(compressed.rawPayload).toString()).toBe(plain.body);
  });

  it("passes a service's own 503 on once, with its words and Retry-After (no retries that add to its load)", async () => {
    const { cookies } = await signUp();
    const before = libraryHits.get('/api/library/busy') ?? 0;
    const response = await gateway.inject({ method: 'GET', url: '/api/library/busy', cookies });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('7');
    expect(response.json()).toEqual({ error: 'unavailable', message: 'The library is busy.' });
    expect((libraryHits.get('/api/library/busy') ?? 0) - before).toBe(1);
  });

  it('hangs up on the service when the client goes away in the middle of a streamed answer', async () => {
    const { cookies } = await signUp();
    await new Promise<void>((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl);
      const req = httpRequest(
        { hostname, port, path: '/api/library/endless', headers: { cookie: `sw_access=${cookies.sw_access}` } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
    });
    await endlessClosed;
  });

  it('sends the first compressed bytes of a long answer while the service is still writing it (brotli held them to the end)', async () => {
    const { cookies } = await signUp();
    // (a compressed answer's headers leave with its first bytes)
    const firstBytes = await new Promise<'arrived' | 'none in 5 s'>((resolve, reject) => {
      const timer = setTimeout(() => resolve('none in 5 s'), 5_000);
      const { hostname, port } = new URL(baseUrl);
      const req = httpRequest(
        { hostname, port, path: '/api/library/held.csv', headers: { cookie: `sw_access=${cookies.sw_access}`, 'accept-encoding': 'br' } },
        (res) => {
          expect(res.headers['content-encoding']).toBe('br');
          res.once('data', () => {
            clearTimeout(timer);
            resolve('arrived');
          });
        },
      );
      req.on('error', (err) => (req.destroyed ? undefined : reject(err)));
      req.end();
      void heldCsvReleased.then(() => req.destroy());
    });
    releaseHeldCsv();
    // 3 MB in: with brotli's default window (4 MiB) nothing had left yet
    expect(firstBytes).toBe('arrived');
  });

  it('answers 503 for a service that fails half way through a (small) answer, never a half answer', async () => {
    const { cookies } = await signUp();
    const response = await gateway.inject({ method: 'GET', url: '/api/library/broken', cookies });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE });
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const { cookies } = await signUp();
    const head = await gateway.inject({ method: 'HEAD', url: '/api/library/articles', cookies });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('application/json');
    expect(head.headers['cache-control']).toBe('no-store');
    expect(head.body).toBe('');
  });
});

describe('cross-site protection', () => {
  it('refuses a mutating request from a foreign Origin', async () => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'a@b.co', password: 'x' },
      headers: { origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('forbidden');
  });

  it.each([
    ['the Host header it was sent with', (host: string) => `http://${host}`],
    ['another scheme', () => 'https://app.localhost'],
    ['another port', () => 'http://app.localhost:8080'],
  ])('compares Origin with APP_URL only, not %s', async (_what, originFor) => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'a@b.co', password: 'x' },
      headers: { origin: originFor('evil.example'), host: 'evil.example' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses any read with her session that a page of another site made her browser send (Sec-Fetch-Site), before anything else', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const refused = await gateway.inject({ method: 'GET', url: `/api/admin/user/${randomUUID()}`, headers: { 'sec-fetch-site': site } });
      expect(refused.statusCode, site).toBe(403);
      expect(refused.json()).toEqual({ error: 'forbidden', message: 'Cross-origin request refused.' });
    }
    // her own typing, the app's own calls and clients that are no browser go on (research-export
    // is not part of this gateway: 404)
    for (const headers of [{ 'sec-fetch-site': 'none' }, { 'sec-fetch-site': 'same-origin' }, {}]) {
      expect((await gateway.inject({ method: 'GET', url: `/api/admin/user/${randomUUID()}`, headers })).statusCode).toBe(404);
    }
    // a participant's too: opening a thread joins it, an export counts against her limit
    const { cookies } = await signUp();
    for (const url of [`/api/community/thread/${randomUUID()}`, '/api/journal/export?format=md', '/api/user']) {
      const linked = await gateway.inject({ method: 'GET', url, cookies, headers: { 'sec-fetch-site': 'cross-site' } });
      expect(linked.statusCode, url).toBe(403);
    }
    const own = await gateway.inject({ method: 'GET', url: '/api/user', cookies, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(own.statusCode).toBe(200);
    // a browser that sends no Fetch Metadata (Safari before 16.4): a page navigated to by a link
    // (it asks for HTML: the only request of another site that carries her SameSite=Lax cookies)
    // is refused; the app's own calls (JSON, or anything) go on
    const navigation = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    for (const url of [`/api/community/thread/${randomUUID()}`, '/api/user']) {
      const linked = await gateway.inject({ method: 'GET', url, cookies, headers: { accept: navigation } });
      expect(linked.statusCode, url).toBe(403);
    }
    for (const accept of ['application/json', '*/*']) {
      expect((await gateway.inject({ method: 'GET', url: '/api/user', cookies, headers: { accept } })).statusCode, accept).toBe(200);
    }
    // her own typing in a browser that says so
    expect(
      (await gateway.inject({ method: 'GET', url: '/api/user', cookies, headers: { accept: navigation, 'sec-fetch-site': 'none' } }))
        .statusCode,
    ).toBe(200);
    // what needs no session may be linked to
    const reset = await gateway.inject({
      method: 'GET',
      url: '/api/validate-reset-token?token=x',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(reset.statusCode).not.toBe(403);
  });

  it('refuses a form-encodable body (text/plain) with 415', async () => {
    const response = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      payload: '{"email":"a@b.co","password":"x"}',
      headers: { 'content-type': 'text/plain', origin: APP_URL },
    });
    expect(response.statusCode).toBe(415);
  });
});

describe('revocation', () => {
  it('refuses a logged-out access token everywhere within a second', async () => {
    const { cookies } = await signUp();
    const before = await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: cookies.sw_access } });
    expect(before.statusCode).toBe(200);

    const out = await gateway.inject({ method: 'POST', url: '/api/logout', payload: {}, cookies, headers: { origin: APP_URL } });
    expect(out.statusCode).toBe(200);
    const loggedOutAt = Date.now();

    // the still-valid JWT alone (as a copied cookie would be) must stop working
    await expect
      .poll(async () => (await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: cookies.sw_access } })).statusCode, {
        timeout: 1_000,
        interval: 50,
      })
      .toBe(401);
    expect(Date.now() - loggedOutAt).toBeLessThan(1_000);
  });

  it('a gateway just started refuses a session revoked within the hour from its first request', async () => {
    const { cookies } = await signUp();
    // a busy hour: many revocations before hers, which a watch goes through in order
    const others = Array.from({ length: 3_000 }, () => {
      const sessionId = randomUUID();
      const data = { sessionId, userId: randomUUID(), reason: 'logout' as const, revokedAt: new Date().toISOString() };
      return testEnvelope('identity.session.revoked', data, { subject: `session:${sessionId}` });
    });
    await Promise.all(others.map((envelope) => bus.publish(envelope)));
    const out = await gateway.inject({ method: 'POST', url: '/api/logout', payload: {}, cookies, headers: { origin: APP_URL } });
    expect(out.statusCode).toBe(200);
    await expect
      .poll(async () => (await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: cookies.sw_access } })).statusCode)
      .toBe(401);
    const started = await startGateway(gatewayDeps.config, { logger: createLogger('gateway', 'silent') });
    try {
      const first = await started.app.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: cookies.sw_access } });
      expect(first.statusCode).toBe(401);
    } finally {
      await started.stop();
    }
  });

  it('refuses the tokens of a deleted account within a second, and other sessions after a password change', async () => {
    const { body, cookies } = await signUp();
    const login = await gateway.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: body.email, password: body.password },
      headers: { origin: APP_URL },
    });
    const other = Object.fromEntries(login.cookies.map((c) => [c.name, c.value])) as { sw_access: string };

    const changed = await gateway.inject({
      method: 'POST',
      url: '/api/account/password',
      cookies,
      headers: { origin: APP_URL },
      payload: { currentPassword: body.password, newPassword: 'a new password', confirmPassword: 'a new password' },
    });
    expect(changed.statusCode).toBe(200);
    await expect
      .poll(async () => (await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: other.sw_access } })).statusCode, {
        timeout: 1_000,
        interval: 50,
      })
      .toBe(401);
    expect((await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: cookies.sw_access } })).statusCode).toBe(200);

    const deleted = await gateway.inject({
      method: 'DELETE',
      url: '/api/account',
      cookies,
      headers: { origin: APP_URL },
      payload: { password: 'a new password' },
    });
    expect(deleted.statusCode).toBe(200);
    await expect
      .poll(async () => (await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_access: cookies.sw_access } })).statusCode, {
        timeout: 1_000,
        interval: 50,
      })
      .toBe(401);
  });
});

describe('cookies a service clears', () => {
  /** What each Set-Cookie of an answer leaves in the browser: the last one of a name wins. */
  const leftIn = (response: { cookies: { name: string; value: string; maxAge?: number }[] }) =>
    Object.fromEntries(response.cookies.map((c) => [c.name, c.maxAge === 0 ? null : c.value]));

  it('a logout with an expired access token (her refresh cookie only) clears both cookies, and her session is over', async () => {
    const { cookies } = await signUp();
    const out = await gateway.inject({
      method: 'POST',
      url: '/api/logout',
      payload: {},
      cookies: { sw_session: cookies.sw_session },
      headers: { origin: APP_URL },
    });
    expect(out.statusCode).toBe(200);
    // identity's clearing is the only word on both: no renewed cookie after (or before) it
    expect(leftIn(out)).toEqual({ sw_access: null, sw_session: null });
    expect(out.cookies).toHaveLength(2);
    const again = await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_session: cookies.sw_session } });
    expect(again.statusCode).toBe(401);
  });

  it('deleting her account with an expired access token clears both cookies', async () => {
    const { body, cookies } = await signUp();
    const deleted = await gateway.inject({
      method: 'DELETE',
      url: '/api/account',
      cookies: { sw_session: cookies.sw_session },
      headers: { origin: APP_URL },
      payload: { password: body.password },
    });
    expect(deleted.statusCode).toBe(200);
    expect(leftIn(deleted)).toEqual({ sw_access: null, sw_session: null });
  });

  it('a refresh cookie that gets her no session is cleared with the 401, malformed or ended, without a 503', async () => {
    for (const refresh of ['x'.repeat(300), 'not a token!', randomUUID().replaceAll('-', '').repeat(2)]) {
      const response = await gateway.inject({ method: 'GET', url: '/api/user', cookies: { sw_session: refresh } });
      expect(response.statusCode, refresh).toBe(401);
      expect(leftIn(response), refresh).toEqual({ sw_access: null, sw_session: null });
    }
  });
});

describe('account routes', () => {
  it('routes forgot-password without a session and keeps deleting users to admins', async () => {
    const forgot = await gateway.inject({
      method: 'POST',
      url: '/api/forgot-password',
      payload: { email: 'someone@example.com' },
      headers: { origin: APP_URL },
    });
    expect(forgot.statusCode).toBe(200);
    expect((await gateway.inject({ method: 'PUT', url: '/api/profile', payload: {}, headers: { origin: APP_URL } })).statusCode).toBe(401);

    const { cookies } = await signUp();
    const byParticipant = await gateway.inject({
      method: 'DELETE',
      url: `/api/admin/users/${randomUUID()}`,
      cookies,
      headers: { origin: APP_URL },
    });
    expect(byParticipant.statusCode).toBe(403);
  });
});

describe('/ws', () => {
  const wsUrl = () => baseUrl.replace('http', 'ws') + '/ws';

  function open(headers: Record<string, string>) {
    return new Promise<{ socket?: WebSocket; status?: number }>((resolve) => {
      const socket = new WebSocket(wsUrl(), { headers });
      socket.on('open', () => resolve({ socket }));
      socket.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
      socket.on('error', () => resolve({}));
    });
  }

  it('refuses an upgrade without a session', async () => {
    expect((await open({ origin: APP_URL })).status).toBe(401);
  });

  it('refuses a foreign Origin', async () => {
    const { cookies } = await signUp();
    const cookie = `sw_access=${cookies.sw_access}; sw_session=${cookies.sw_session}`;
    expect((await open({ origin: 'https://evil.example', cookie })).status).toBe(403);
  });

  it('answers ping with pong for a signed-in user, and closes when her session is revoked', async () => {
    const { cookies } = await signUp();
    const cookie = `sw_access=${cookies.sw_access}; sw_session=${cookies.sw_session}`;
    const { socket } = await open({ origin: APP_URL, cookie });
    expect(socket).toBeDefined();
    const reply = new Promise<string>((resolve) => socket!.once('message', (data) => resolve(data.toString())));
    socket!.send(JSON.stringify({ type: 'ping' }));
    expect(JSON.parse(await reply)).toEqual({ type: 'pong' });

    const closed = new Promise<number>((resolve) => socket!.on('close', (code) => resolve(code)));
    await fetch(`${baseUrl}/api/logout`, { method: 'POST', headers: { ...json, origin: APP_URL, cookie }, body: '{}' });
    expect(await closed).toBe(4401);
  });
});

describe('static files', () => {
  it('answers 404 for a missing asset instead of the index page', async () => {
    const response = await gateway.inject({ method: 'GET', url: '/assets/gone-1234.js' });
    expect(response.statusCode).toBe(404);
  });
});

describe('path tricks', () => {
  /** Sends the path exactly as written (fetch would resolve the dot segments itself). */
  function rawRequest(method: string, path: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const { hostname, port } = new URL(baseUrl);
      const headers = method === 'POST' ? { 'content-type': 'application/json', origin: APP_URL } : {};
      const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(method === 'POST' ? JSON.stringify({ refreshToken: 'x' }) : undefined);
    });
  }

  it.each([
    ['POST', '/api/login/../../internal/session/refresh'],
    ['POST', '/api/login/%2e%2e/%2e%2e/internal/session/refresh'],
    ['GET', '/api/login/../user'],
    ['GET', '/api/login%5c..%5cuser'],
  ])('refuses %s %s with 400 instead of routing it elsewhere', async (method, path) => {
    expect(await rawRequest(method, path)).toBe(400);
  });
});

describe('caching and browser features', () => {
  it('keeps hashed assets a year, revalidates the page, never keeps an API answer', async () => {
    const { cookies } = await signUp();
    const asset = await gateway.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/sleep/dashboard']) {
      expect((await gateway.inject({ method: 'GET', url })).headers['cache-control'], url).toBe('no-cache');
    }
    expect((await gateway.inject({ method: 'GET', url: '/api/user', cookies })).headers['cache-control']).toBe('no-store');
    expect((await gateway.inject({ method: 'GET', url: '/api/user' })).headers['cache-control']).toBe('no-store'); // a 401 too
    const image = await gateway.inject({ method: 'GET', url: '/api/library/images/linen.png', cookies });
    expect(image.headers['cache-control']).toBe('public, max-age=86400');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    for (const url of ['/', '/sleep/dashboard']) {
      const { headers } = await gateway.inject({ method: 'GET', url });
      expect(headers['permissions-policy'], url).toContain('camera=()');
      expect(headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it("sends an API answer with an API's headers: nothing of it may run, be framed or sniffed, or be read cross-origin", async () => {
    const { cookies } = await signUp();
    const answers = [
      await gateway.inject({ method: 'GET', url: '/api/user', cookies }),
      await gateway.inject({ method: 'GET', url: '/api/user' }), // the gateway's own 401
      await gateway.inject({ method: 'GET', url: '/api/library/images/linen.png', cookies }),
      await gateway.inject({ method: 'GET', url: '/health' }),
    ];
    for (const { headers, statusCode } of answers) {
      expect(headers['content-security-policy'], String(statusCode)).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['cross-origin-resource-policy']).toBe('same-origin');
      // a page's headers only (what the browser reads from documents)
      for (const name of ['permissions-policy', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection']) {
        expect(headers[name], name).toBeUndefined();
      }
    }
  });

  it('says once, when a request comes through a proxy, that TRUST_PROXY is off (the limits per client would be shared by all)', async () => {
    const lines: string[] = [];
    const logger = createLogger('gateway', 'warn', 'json', { write: (line: string) => void lines.push(line) });
    const behindProxy = await buildGateway({ ...gatewayDeps, logger });
    try {
      await behindProxy.inject({ method: 'GET', url: '/health' });
      expect(lines.filter((line) => line.includes('TRUST_PROXY'))).toEqual([]);
      for (let i = 0; i < 3; i++)
        await behindProxy.inject({ method: 'GET', url: '/health', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(lines.filter((line) => line.includes('TRUST_PROXY is off'))).toHaveLength(1);
    } finally {
      await behindProxy.close();
    }
  });

  it('tells browsers to keep to https (HSTS) on every answer when the app is served over https, and never over http', async () => {
    const overHttps = await buildGateway({ ...gatewayDeps, config: { ...gatewayDeps.config, APP_URL: 'https://app.test' } });
    try {
      for (const url of ['/', '/assets/index-Ab12Cd34.js', '/api/user', '/health']) {
        const { headers } = await overHttps.inject({ method: 'GET', url });
        expect(headers['strict-transport-security'], url).toMatch(/^max-age=\d+/);
        expect((await gateway.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBeUndefined();
      }
    } finally {
      await overHttps.close();
    }
  });

  it("sends the build's scripts with only the headers a script is read with", async () => {
    const asset = await gateway.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
    expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(asset.headers['referrer-policy']).toBe('no-referrer');
    // read from documents only
    for (const name of ['content-security-policy', 'permissions-policy', 'x-frame-options', 'cross-origin-opener-policy']) {
      expect(asset.headers[name], name).toBeUndefined();
    }
    const size = (headers: Record<string, unknown>) =>
      Object.entries(headers).reduce((n, [k, v]) => n + k.length + String(v).length + 4, 0);
    expect(size(asset.headers)).toBeLessThan(500);
  });
});

describe('compression', () => {
  it('sends a JSON answer over 1 KB compressed as the browser accepts, and a small one as it is', async () => {
    const { cookies } = await signUp();
    const big = await gateway.inject({ method: 'GET', url: '/api/library/articles', cookies, headers: { 'accept-encoding': 'br, gzip' } });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString())).toEqual(CARDS);
    const plain = await gateway.inject({ method: 'GET', url: '/api/library/articles', cookies });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(CARDS);
    const small = await gateway.inject({ method: 'GET', url: '/api/user', cookies, headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it("serves the build's precompressed copy of an asset, still cached for a year", async () => {
    const asset = await gateway.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(asset.rawPayload).toString()).toBe(APP_JS);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const identityEncoded = await gateway.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js' });
    expect(identityEncoded.headers['content-encoding']).toBeUndefined();
    expect(identityEncoded.body).toBe(APP_JS);
  });
});

describe('a service that is down', () => {
  it('answers 503 with words a person can read and Retry-After, not a 500', async () => {
    const { cookies } = await signUp();
    const response = await gateway.inject({ method: 'GET', url: '/api/journal/entries', cookies });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: 'unavailable', message: TEMPORARILY_UNAVAILABLE_MESSAGE });
  });
});

describe('a service that hangs', () => {
  it('answers a change it does not answer in time with 504 saying it may have been saved (not that it failed); a read may take longer', async () => {
    const { cookies } = await signUp();
    const hanging = await buildGateway({ ...gatewayDeps, proxy: { changeAnswerMs: 300 } });
    try {
      const started = Date.now();
      const change = await hanging.inject({
        method: 'POST',
        url: '/api/community/message',
        cookies,
        headers: { origin: APP_URL, ...json },
        payload: { threadId: randomUUID(), body: 'hello' },
      });
      expect(change.statusCode).toBe(504);
      expect(change.json()).toEqual({ error: 'unavailable', message: NOT_CONFIRMED_MESSAGE });
      expect(Date.now() - started).toBeLessThan(5_000);
      // a read is not held to a change's time
      const read = await hanging.inject({ method: 'GET', url: '/api/library/slow', cookies });
      expect(read.statusCode).toBe(200);
    } finally {
      for (const response of heldChanges.splice(0)) response.destroy();
      await hanging.close();
    }
  });
});

describe('session renewal when identity is down', () => {
  it('answers 503, not 500 or a silent sign-out', async () => {
    const resolver = createSessionResolver({
      verifier: async () => {
        throw new Error('expired');
      },
      revocations: new RevocationList(1_000),
      identityUrl: 'http://127.0.0.1:9', // nothing listens there
      internalToken: 'test-internal-token-unused-here',
      cookieNames: sessionCookieNames('http://localhost:3000'),
    });
    const request = { cookies: { sw_session: 'some-refresh-token' }, correlationId: 'c', log: createLogger('t', 'silent') };
    await expect(resolver.resolve(request as never)).rejects.toMatchObject({ statusCode: 503, error: 'unavailable' });
  });
});

describe('session cookies over https', () => {
  it('reads her __Host- cookies only: one a sibling subdomain planted under the plain name, sent first, is not taken', async () => {
    const sub = randomUUID();
    const resolver = createSessionResolver({
      verifier: async (token) => {
        if (token !== 'her-access-token') throw new Error('not a token of ours');
        return { sub, sid: randomUUID(), role: 'participant', exp: Math.floor(Date.now() / 1000) + 600 };
      },
      revocations: new RevocationList(1_000),
      identityUrl: 'http://127.0.0.1:9', // not asked: her access token is valid
      internalToken: 'test-internal-token-unused-here',
      cookieNames: sessionCookieNames('https://sleepweave.example'),
    });
    const cookies = { sw_access: 'planted', sw_session: 'planted-refresh', '__Host-sw_access': 'her-access-token' };
    const request = { cookies, correlationId: 'c', log: createLogger('t', 'silent') };
    expect(await resolver.resolve(request as never)).toMatchObject({ claims: { sub } });
    expect(sessionCookieNames('http://localhost:3000')).toEqual({ access: 'sw_access', refresh: 'sw_session' });
  });
});

describe('/ws limits (a gateway with a stand-in session)', () => {
  async function gatewayWithSession(
    expiresInSeconds: number,
    env: NodeJS.ProcessEnv = {},
    sid: string | null = randomUUID(),
    threads?: GatewayDeps['threads'],
    logger = createLogger('gateway', 'silent'),
  ) {
    const config = readGatewayConfig({ ...process.env, PORT: '0', HOST: '127.0.0.1', APP_URL, LOG_LEVEL: 'silent', ...env });
    // one user; each connection in a session of its own unless `sid` is given
    const sub = randomUUID();
    const sessions = {
      resolve: async () => ({
        claims: { sub, sid: sid ?? randomUUID(), role: 'participant' as const },
        accessToken: 'stand-in',
        expiresAt: Math.floor(Date.now() / 1000) + expiresInSeconds,
      }),
    };
    const app = await buildGateway({ config, logger, bus, sessions, revocations: new RevocationList(1_000), upstreams: {}, threads });
    await app.listen({ host: '127.0.0.1', port: 0 });
    return { app, url: `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws` };
  }

  /** A thread hub that asks no community service: its answer to a join, and whether it is live. */
  const standInHub = (mayJoin: () => Promise<string>, isLive = () => true) =>
    ({ mayJoin, isLive, join: () => undefined, leave: () => undefined }) as unknown as GatewayDeps['threads'];

  it("logs a frame the protocol refuses as the client's fault (info, no stack), and closes the socket saying why", async () => {
    const lines: { level: number; msg: string; code?: string }[] = [];
    const logger = createLogger('gateway', 'info', 'json', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const { app, url } = await gatewayWithSession(600, {}, randomUUID(), undefined, logger);
    try {
      const socket = new WebSocket(url, { headers: { origin: APP_URL } });
      await new Promise((resolve) => socket.on('open', resolve));
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      // a masked text frame (mask 0) whose two bytes are not UTF-8, written past the client's checks
      (socket as unknown as { _socket: Socket })._socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xff, 0xfe]));
      expect(await closed).toBe(1007);
      await expect
        .poll(() => lines.filter((line) => line.msg === 'socket closed: a frame the protocol refuses'), { timeout: 3_000 })
        .toMatchObject([{ level: 30, code: 'WS_ERR_INVALID_UTF8' }]);
      expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      await app.close();
    }
  });

  /** A socket opened from the app's origin, and the replies it gets as they come. */
  async function openSocket(url: string) {
    const socket = new WebSocket(url, { headers: { origin: APP_URL } });
    await new Promise((resolve) => socket.on('open', resolve));
    const replies: { type: string; threadId?: string; message?: string }[] = [];
    socket.on('message', (data) => replies.push(JSON.parse(data.toString())));
    return { socket, replies };
  }

  it('never answers joined for a thread community has not said yes to, however often she asks meanwhile', async () => {
    // community takes a moment, then refuses
    const slowRefusal = standInHub(() => new Promise((resolve) => setTimeout(() => resolve('denied'), 300)));
    const { app, url } = await gatewayWithSession(600, {}, randomUUID(), slowRefusal);
    try {
      const { socket, replies } = await openSocket(url);
      const threadId = randomUUID();
      socket.send(JSON.stringify({ type: 'join_thread', threadId }));
      socket.send(JSON.stringify({ type: 'join_thread', threadId }));
      await expect.poll(() => replies.length, { timeout: 3_000 }).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // one answer each, both the refusal
      expect(replies.map((reply) => [reply.type, reply.message])).toEqual([
        ['error', 'Thread not found or access denied'],
        ['error', 'Thread not found or access denied'],
      ]);
      socket.close();
    } finally {
      await app.close();
    }
  });

  it('refuses a join while new messages cannot reach the gateway (its watch not following), and answers joined once they can', async () => {
    let live = false;
    const hub = standInHub(
      async () => 'allowed',
      () => live,
    );
    const { app, url } = await gatewayWithSession(600, {}, randomUUID(), hub);
    try {
      const { socket, replies } = await openSocket(url);
      const threadId = randomUUID();
      socket.send(JSON.stringify({ type: 'join_thread', threadId }));
      await expect.poll(() => replies.length, { timeout: 3_000 }).toBe(1);
      // not "joined": the browser would say Live while nothing reaches it
      expect(replies[0]).toEqual({ type: 'error', threadId, message: LIVE_PAUSED_MESSAGE });
      live = true;
      socket.send(JSON.stringify({ type: 'join_thread', threadId }));
      await expect.poll(() => replies.length, { timeout: 3_000 }).toBe(2);
      expect(replies[1]).toEqual({ type: 'joined', threadId });
      socket.close();
    } finally {
      await app.close();
    }
  });

  it("closes for a renewal, not as a session ended, when community refuses the socket's access token (it expired there)", async () => {
    const expired = standInHub(async () => 'unauthorized');
    const { app, url } = await gatewayWithSession(600, {}, randomUUID(), expired);
    try {
      const socket = new WebSocket(url, { headers: { origin: APP_URL } });
      await new Promise((resolve) => socket.on('open', resolve));
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ type: 'join_thread', threadId: randomUUID() }));
      expect(await closed).toBe(4000); // the browser reconnects; after 4401 it would give up
    } finally {
      await app.close();
    }
  });

  const connect = (url: string) =>
    new Promise<{ socket?: WebSocket; status?: number }>((resolve) => {
      const socket = new WebSocket(url, { headers: { origin: APP_URL } });
      socket.once('open', () => resolve({ socket }));
      socket.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
    });
  const closeCode = (socket: WebSocket) => new Promise<number>((resolve) => socket.on('close', (c) => resolve(c)));

  it('closes a socket when the access token it was opened with expires, for the browser to reconnect and renew', async () => {
    const { app, url } = await gatewayWithSession(1);
    try {
      const socket = new WebSocket(url, { headers: { origin: APP_URL } });
      const code = await closeCode(socket);
      expect(code).toBe(4000); // not 4401 "session ended", after which the app gives up
    } finally {
      await app.close();
    }
  });

  it('refuses more than 30 join_thread messages a minute', async () => {
    const { app, url } = await gatewayWithSession(600);
    try {
      const { socket, replies } = await openSocket(url);
      for (let i = 0; i < 31; i++) socket.send(JSON.stringify({ type: 'join_thread', threadId: randomUUID() }));
      await expect.poll(() => replies.length, { timeout: 3_000 }).toBe(31);
      expect(replies.filter((r) => r.message === 'Too many requests. Please wait a minute.')).toHaveLength(1);
      socket.close();
    } finally {
      await app.close();
    }
  });

  /** `cap` sockets open at `url`, one more is refused (429), and a place is free again once one closed. */
  async function expectCapOf(cap: number, url: string) {
    const open = await Promise.all(Array.from({ length: cap }, () => connect(url)));
    expect(open.every((o) => o.socket)).toBe(true);
    expect((await connect(url)).status).toBe(429);
    open[0]!.socket!.close();
    await expect
      .poll(async () => {
        const again = await connect(url);
        again.socket?.close();
        return Boolean(again.socket);
      })
      .toBe(true);
    for (const o of open) o.socket?.close();
  }

  it('caps the sockets of a session and of an address', async () => {
    const { app, url } = await gatewayWithSession(600, { WS_MAX_SOCKETS_PER_SESSION: '3', WS_MAX_SOCKETS_PER_IP: '100' });
    try {
      await expectCapOf(3, url);
    } finally {
      await app.close();
    }
    const perIp = await gatewayWithSession(600, { WS_MAX_SOCKETS_PER_SESSION: '100', WS_MAX_SOCKETS_PER_IP: '2' }, randomUUID());
    try {
      const open = await Promise.all([connect(perIp.url), connect(perIp.url)]);
      expect((await connect(perIp.url)).status).toBe(429);
      for (const o of open) o.socket?.close();
    } finally {
      await perIp.app.close();
    }
  });

  it('caps the sockets of a user, her sessions together', async () => {
    const { app, url } = await gatewayWithSession(600, { WS_MAX_SOCKETS_PER_USER: '3', WS_MAX_SOCKETS_PER_IP: '100' }, null);
    try {
      await expectCapOf(3, url);
    } finally {
      await app.close();
    }
  });

  it('limits the frames of any kind and closes a socket that keeps flooding', async () => {
    const { app, url } = await gatewayWithSession(600);
    try {
      const { socket } = await connect(url);
      const replies: { type: string; message?: string }[] = [];
      socket!.on('message', (data) => replies.push(JSON.parse(data.toString())));
      const closed = closeCode(socket!);
      for (let i = 0; i < 1_000; i++) socket!.send(JSON.stringify({ type: 'ping' }));
      expect(await closed).toBe(4429);
      expect(replies.filter((r) => r.type === 'pong')).toHaveLength(120);
      expect(replies.filter((r) => r.message === 'Too many messages. Please slow down.')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('closes a socket that follows no thread for a while', async () => {
    const { app, url } = await gatewayWithSession(600, { WS_HEARTBEAT_MS: '100', WS_IDLE_MS: '300' });
    try {
      const { socket } = await connect(url);
      expect(await closeCode(socket!)).toBe(4408);
    } finally {
      await app.close();
    }
  });

  it('drops a socket whose client stopped answering pings (its network went away)', async () => {
    const { app, url } = await gatewayWithSession(600, { WS_HEARTBEAT_MS: '100', WS_IDLE_MS: '60000' });
    try {
      const silent = new WebSocket(url, { headers: { origin: APP_URL }, autoPong: false });
      await new Promise((resolve) => silent.once('open', resolve));
      expect(await closeCode(silent)).toBe(1006); // terminated: no close frame
    } finally {
      await app.close();
    }
  });
});
