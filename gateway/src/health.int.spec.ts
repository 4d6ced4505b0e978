/**
 * The gateway's /health is degraded while a watch it depends on (revoked sessions, role
 * changes, live community messages) is not following the bus, and ok again once NATS is back.
 */
import type { AddressInfo } from 'node:net';
import { createHttpApp, createLogger } from '@sleepweave/service-kit';
import { randomBusPrefix } from '@sleepweave/bus/testing';
import { startNatsServer, type NatsServer } from '@sleepweave/test-servers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGatewayConfig } from './config.ts';
import { UPSTREAM_HEALTH_REUSE_MS } from './app.ts';
import { startGateway, type RunningGateway } from './start.ts';

/** What the gateway logged (at info, as it runs). */
const lines: string[] = [];
const logger = createLogger('gateway', 'info', 'json', { write: (line: string) => void lines.push(line) });
const messages = () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
/** What requests logged: the watches and NATS log on their own time. */
const requestMessages = () =>
  lines
    .map((line) => JSON.parse(line) as { msg: string; reqId?: string })
    .filter((line) => line.reqId !== undefined)
    .map((line) => line.msg);
let nats: NatsServer;
let gateway: RunningGateway;
// every service it routes to answers its own /health: only the gateway's checks vary
const upstream = createHttpApp({ logger: createLogger('upstream', 'silent') });
let upstreamAsked = 0;
let upstreamStatus = 200;
upstream.get('/health', async (_request, reply) => {
  upstreamAsked += 1;
  return reply.status(upstreamStatus).send({ status: upstreamStatus === 200 ? 'ok' : 'degraded' });
});

beforeAll(async () => {
  nats = await startNatsServer();
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
  const config = readGatewayConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    NATS_URL: nats.url,
    BUS_PREFIX: randomBusPrefix(),
    IDENTITY_URL: url,
    COMMUNITY_URL: url,
    LOG_LEVEL: 'silent',
  });
  gateway = await startGateway(config, { logger });
});
afterAll(async () => {
  await gateway?.stop();
  await upstream.close();
  await nats?.destroy();
});

/** The gateway's own checks when NATS and its watches are well. */
const OWN_CHECKS_OK = {
  nats: 'ok',
  'watch:revocations': 'following',
  'watch:role-changes': 'following',
  'watch:community-messages': 'following',
};

async function health(url = '/health') {
  const response = await gateway.app.inject({ method: 'GET', url });
  return { status: response.statusCode, checks: (response.json() as { checks: Record<string, string> }).checks };
}

describe('gateway /health', () => {
  it('asks the services at most once a second however often it is asked (it is public)', async () => {
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_HEALTH_REUSE_MS));
    const before = upstreamAsked;
    const answers = await Promise.all(Array.from({ length: 50 }, () => gateway.app.inject({ method: 'GET', url: '/health' })));
    expect(answers.map((answer) => answer.json().checks.identity)).toEqual(Array(50).fill('ok'));
    // identity and community, each once
    expect(upstreamAsked - before).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, UPSTREAM_HEALTH_REUSE_MS));
    await health();
    expect(upstreamAsked - before).toBe(4);
  });

  it('reports its watches, and is degraded while they do not follow the bus', async () => {
    expect(await health()).toEqual({
      status: 200,
      checks: { ...OWN_CHECKS_OK, identity: 'ok', community: 'ok' },
    });
    await nats.stop();
    await expect.poll(health, { timeout: 10_000 }).toMatchObject({
      status: 503,
      checks: {
        nats: 'down',
        'watch:revocations': 'recovering',
        'watch:role-changes': 'recovering',
        'watch:community-messages': 'recovering',
      },
    });
    // what is wrong is logged at each poll, though its answers are not
    lines.length = 0;
    await health();
    expect(messages()).toContain('degraded');
    expect(await health('/health/ready')).toMatchObject({ status: 503, checks: { nats: 'down' } });
    await nats.start();
    await expect.poll(async () => (await health()).status, { timeout: 20_000 }).toBe(200);
  });

  it("/health/ready answers for this instance alone: a service catching up or down is every gateway instance's alike", async () => {
    await expect.poll(async () => (await health()).status, { timeout: 20_000 }).toBe(200);
    upstreamStatus = 503;
    try {
      await new Promise((resolve) => setTimeout(resolve, UPSTREAM_HEALTH_REUSE_MS));
      expect(await health()).toMatchObject({ status: 503, checks: { identity: 'down', community: 'down' } });
      expect(await health('/health/ready')).toEqual({
        status: 200,
        checks: OWN_CHECKS_OK,
      });
    } finally {
      upstreamStatus = 200;
    }
  });
});

describe('gateway /health in the logs', () => {
  it('is not logged when it answers (Docker polls it every 10 s), while other requests are', async () => {
    await expect.poll(async () => (await health()).status, { timeout: 20_000 }).toBe(200);
    lines.length = 0;
    await health();
    expect(requestMessages()).toEqual([]);
    await gateway.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(requestMessages()).toEqual(['incoming request', 'request completed']);
  });
});

describe('the gateway process', () => {
  it('gives heap memory back once idle after a burst (service-kit memory.ts)', () => {
    expect(gateway.memory).toBeDefined();
    expect(gateway.memory.collections).toBeGreaterThanOrEqual(0);
  });
});
