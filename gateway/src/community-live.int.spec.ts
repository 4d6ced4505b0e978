/**
 * Live community threads over /ws, end to end in one process: identity and community
 * (listening), and two gateway instances on the same bus prefix, as two gateway
 * processes side by side would run.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBus, type Bus, type Subscription } from '@sleepweave/bus';
import { sessionCookieNames, type ServerSocketMessage } from '@sleepweave/contracts';
import { createAccessTokenVerifier, createLogger, remoteKeySet, type ServiceApp } from '@sleepweave/service-kit';
import { startTestService, testEnv } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readCommunityConfig } from '../../services/community/src/config.ts';
import { communityService } from '../../services/community/src/service.ts';
import { startDirectThread } from '../../services/community/src/threads/commands.ts';
import { newRegistration, startIdentity, type Identity } from '../../services/identity/src/test/helpers.ts';
import { buildGateway } from './app.ts';
import { followCommunityMessages, ThreadHub } from './community-live.ts';
import { readGatewayConfig } from './config.ts';
import { followRevocations, RevocationList } from './revocations.ts';
import { createSessionResolver } from './session.ts';

const APP_URL = 'http://app.test';
const env = testEnv({ HOST: '127.0.0.1' });
let identity: Identity;
let community: Awaited<ReturnType<typeof startTestService<ReturnType<typeof readCommunityConfig>, never>>>;

interface RunningGateway {
  app: ServiceApp;
  bus: Bus;
  hub: ThreadHub;
  stops: Subscription[];
  wsUrl: string;
}
const gateways: RunningGateway[] = [];

async function startGateway(identityUrl: string, communityUrl: string): Promise<RunningGateway> {
  const webDist = await mkdtemp(join(tmpdir(), 'sw-web-'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Sleepweave</title>');
  const config = readGatewayConfig({
    ...env,
    PORT: '0',
    APP_URL,
    IDENTITY_URL: identityUrl,
    COMMUNITY_URL: communityUrl,
    WEB_DIST: webDist,
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger('gateway', 'silent');
  const bus = await connectBus({ servers: config.NATS_URL, prefix: config.BUS_PREFIX, name: 'gateway-test', logger });
  const revocations = new RevocationList(3_600_000);
  const following = await followRevocations(bus, revocations, 3_600_000, logger);
  const hub = new ThreadHub({ communityUrl, internalToken: config.INTERNAL_TOKEN, logger });
  const live = await followCommunityMessages(bus, hub, logger);
  const sessions = createSessionResolver({
    verifier: createAccessTokenVerifier(remoteKeySet(identityUrl)),
    revocations,
    identityUrl,
    internalToken: config.INTERNAL_TOKEN,
    cookieNames: sessionCookieNames(config.APP_URL),
  });
  const app = await buildGateway({
    config,
    logger,
    bus,
    sessions,
    revocations,
    threads: hub,
    upstreams: { identity: identityUrl, community: communityUrl },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const wsUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
  return { app, bus, hub, stops: [following, live], wsUrl };
}

beforeAll(async () => {
  identity = await startIdentity(env, { listen: true });
  const identityUrl = `http://127.0.0.1:${(identity.app.server.address() as AddressInfo).port}`;
  community = (await startTestService(communityService, readCommunityConfig({ ...env, IDENTITY_URL: identityUrl }), {
    listen: true,
  })) as never;
  const communityUrl = `http://127.0.0.1:${(community.app.server.address() as AddressInfo).port}`;
  gateways.push(await startGateway(identityUrl, communityUrl), await startGateway(identityUrl, communityUrl));
});

afterAll(async () => {
  for (const g of gateways) {
    await g.app.close();
    for (const s of g.stops) await s.stop();
    await g.bus.close();
  }
  await community?.cleanup();
  await identity?.cleanup();
});

async function signUp(gateway: RunningGateway) {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/api/register',
    payload: newRegistration(),
    headers: { origin: APP_URL },
  });
  expect(response.statusCode).toBe(201);
  const cookies = Object.fromEntries(response.cookies.map((c) => [c.name, c.value])) as { sw_access: string; sw_session: string };
  return { id: response.json().user.id as string, cookies, cookie: `sw_access=${cookies.sw_access}; sw_session=${cookies.sw_session}` };
}
type Member = Awaited<ReturnType<typeof signUp>>;

/** A socket that records every message it receives. */
async function connect(gateway: RunningGateway, member: Member) {
  const socket = new WebSocket(gateway.wsUrl, { headers: { origin: APP_URL, cookie: member.cookie } });
  const received: ServerSocketMessage[] = [];
  socket.on('message', (data) => received.push(JSON.parse(data.toString()) as ServerSocketMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    received,
    send: (message: object) => socket.send(JSON.stringify(message)),
    notices: (threadId: string) => received.filter((m) => m.type === 'new_message' && m.threadId === threadId),
    /** A ping round trip: whatever the gateway sent this socket before it has arrived by the pong. */
    async flush() {
      const pongs = received.filter((m) => m.type === 'pong').length;
      socket.send(JSON.stringify({ type: 'ping' }));
      await expect.poll(() => received.filter((m) => m.type === 'pong').length, { timeout: 5_000 }).toBe(pongs + 1);
    },
    async next(type: ServerSocketMessage['type'], threadId?: string) {
      await expect
        .poll(() => received.some((m) => m.type === type && (!threadId || ('threadId' in m && m.threadId === threadId))), {
          timeout: 5_000,
        })
        .toBe(true);
      return received.find((m) => m.type === type && (!threadId || ('threadId' in m && m.threadId === threadId)))!;
    },
  };
}

async function createThread(gateway: RunningGateway, member: Member, name: string) {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/api/community/thread',
    payload: { name },
    cookies: member.cookies,
    headers: { origin: APP_URL },
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

async function post(gateway: RunningGateway, member: Member, threadId: string, body: string) {
  const response = await gateway.app.inject({
    method: 'POST',
    url: '/api/community/message',
    payload: { threadId, body },
    cookies: member.cookies,
    headers: { origin: APP_URL },
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; senderId: string; createdAt: string };
}

describe('/api/community through the gateway', () => {
  it('needs a session', async () => {
    const [g] = gateways;
    expect((await g!.app.inject({ method: 'GET', url: '/api/community/threads' })).statusCode).toBe(401);
  });

  it('does not expose the internal access check', async () => {
    const [g] = gateways;
    const member = await signUp(g!);
    // Not proxied: a GET of an unknown path is the web app's (its router shows 404 Page Not Found).
    const response = await g!.app.inject({ method: 'GET', url: `/internal/threads/${randomUUID()}/access`, cookies: member.cookies });
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.statusCode).not.toBe(204);
  });
});

describe('live threads over /ws', () => {
  it('refuses to join a thread she may not open: an error, and none of its messages', async () => {
    const [g1] = gateways as [RunningGateway];
    const ines = await signUp(g1);
    const maya = await signUp(g1);
    const stranger = await signUp(g1);
    const threadId = randomUUID();
    await startDirectThread(
      community.context as never,
      {
        threadId,
        name: 'Ines & Maya',
        creatorId: ines.id,
        memberIds: [maya.id],
        now: new Date(),
      },
      {},
    );

    const outsider = await connect(g1, stranger);
    outsider.send({ type: 'join_thread', threadId });
    expect(await outsider.next('error', threadId)).toEqual({ type: 'error', threadId, message: 'Thread not found or access denied' });

    const insider = await connect(g1, maya);
    insider.send({ type: 'join_thread', threadId });
    await insider.next('joined', threadId);

    const message = await post(g1, ines, threadId, 'Only for Maya');
    await expect.poll(() => insider.notices(threadId).length, { timeout: 5_000 }).toBe(1);
    expect(insider.notices(threadId)[0]).toEqual({
      type: 'new_message',
      threadId,
      message: { id: message.id, senderId: ines.id, createdAt: message.createdAt },
    });
    // the insider got it, so the hub has handed it out: the outsider got nothing of it
    await outsider.flush();
    expect(outsider.notices(threadId)).toEqual([]);
    expect(JSON.stringify(outsider.received)).not.toContain(message.id);
    expect(g1.hub.followerCount(threadId)).toBe(1);
    outsider.socket.close();
    insider.socket.close();
  });

  it('tells the sockets of a thread when a deleted account’s messages left it, naming nobody', async () => {
    const [g1, g2] = gateways as [RunningGateway, RunningGateway];
    const ines = await signUp(g1);
    const dana = await signUp(g1);
    const threadId = await createThread(g1, ines, 'Night sweats');
    await post(g1, dana, threadId, 'My private story');
    const viewer = await connect(g2, ines);
    viewer.send({ type: 'join_thread', threadId });
    await viewer.next('joined', threadId);

    // Dana deletes her account: identity -> community (her messages go) -> the bus -> every gateway
    const deleted = await g1.app.inject({
      method: 'DELETE',
      url: '/api/account',
      payload: { password: 'correct horse battery' },
      cookies: dana.cookies,
      headers: { origin: APP_URL },
    });
    expect(deleted.statusCode).toBe(200);
    expect(await viewer.next('thread_changed', threadId)).toEqual({ type: 'thread_changed', threadId });
    expect(JSON.stringify(viewer.received)).not.toContain(dana.id);
    viewer.socket.close();
  });

  it('delivers each new message once to every joined socket, whichever gateway process holds it', async () => {
    const [g1, g2] = gateways as [RunningGateway, RunningGateway];
    const ines = await signUp(g1);
    const maya = await signUp(g2);
    const threadId = await createThread(g1, ines, 'Linen week one');

    const onFirst = await connect(g1, maya);
    const onSecond = await connect(g2, maya);
    const another = await connect(g2, ines);
    for (const client of [onFirst, onSecond, another]) client.send({ type: 'join_thread', threadId });
    // joining twice does not double anything
    onSecond.send({ type: 'join_thread', threadId });
    for (const client of [onFirst, onSecond, another]) await client.next('joined', threadId);
    await expect.poll(() => onSecond.received.filter((m) => m.type === 'joined').length).toBe(2);
    expect(g1.hub.followerCount(threadId)).toBe(1);
    expect(g2.hub.followerCount(threadId)).toBe(2);

    const first = await post(g1, ines, threadId, 'Day one: cooler already');
    const second = await post(g2, maya, threadId, 'Same here');
    for (const client of [onFirst, onSecond, another]) {
      await expect.poll(() => client.notices(threadId).length, { timeout: 5_000 }).toBe(2);
    }
    for (const client of [onFirst, onSecond, another]) {
      await client.flush(); // nothing more was on its way
      expect(client.notices(threadId).map((m) => (m.type === 'new_message' ? m.message.id : null))).toEqual([first.id, second.id]);
    }

    // after leave_thread (or closing), a socket gets nothing more
    onFirst.send({ type: 'leave_thread', threadId });
    await onFirst.next('left', threadId);
    onSecond.socket.close();
    await expect.poll(() => g2.hub.followerCount(threadId)).toBe(1);
    await post(g1, ines, threadId, 'Anyone still here?');
    await expect.poll(() => another.notices(threadId).length, { timeout: 5_000 }).toBe(3);
    expect(onFirst.notices(threadId)).toHaveLength(2);
    onFirst.socket.close();
    another.socket.close();
  });

  it('answers ping and refuses a malformed join', async () => {
    const [g1] = gateways as [RunningGateway];
    const client = await connect(g1, await signUp(g1));
    client.send({ type: 'ping' });
    await client.next('pong');
    client.send({ type: 'join_thread', threadId: 'not-a-uuid' });
    expect(await client.next('error')).toEqual({ type: 'error', message: 'Unknown message.' });
    client.socket.close();
  });
});
