import { describe, expect, it, vi } from 'vitest';
import { createHttpApp } from './http.ts';
import { createLogger, loggedUrl, redactUrl } from './logger.ts';

describe('redactUrl', () => {
  it.each([
    ['/api/validate-reset-token?token=abc123', '/api/validate-reset-token?token=[redacted]'],
    ['/reset?x=1&token=abc&y=2', '/reset?x=1&token=[redacted]&y=2'],
    ['/api/library/cards?search=linen', '/api/library/cards?search=linen'],
    ['/api/user', '/api/user'],
  ])('%s -> %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('loggedUrl', () => {
  it.each([
    ['/api/admin/users?q=jane.doe@example.com&limit=50', '/api/admin/users?q=[redacted]&limit=[redacted]'],
    ['/api/library/cards?search=hot%20flushes', '/api/library/cards?search=[redacted]'],
    ['/api/validate-reset-token?token=abc123', '/api/validate-reset-token?token=[redacted]'],
    ['/api/threads?flag&cursor=', '/api/threads?flag&cursor=[redacted]'],
    ['/api/user?', '/api/user'],
    ['/api/user', '/api/user'],
  ])('%s -> %s', (url, expected) => {
    expect(loggedUrl(url)).toBe(expected);
  });
});

describe('createLogger', () => {
  it('redacts a secret field at the top of an entry as well as one level down', () => {
    const lines: string[] = [];
    const logger = createLogger('test', 'info', 'json', { write: (line: string) => void lines.push(line) });
    logger.info({ password: 'hunter2', token: 'reset-abc', user: { passwordHash: '$argon2id$x', refreshToken: 'r-1' } }, 'secrets');
    expect(JSON.parse(lines[0]!)).toMatchObject({
      password: '[redacted]',
      token: '[redacted]',
      user: { passwordHash: '[redacted]', refreshToken: '[redacted]' },
    });
    for (const secret of ['hunter2', 'reset-abc', '$argon2id$x', 'r-1']) expect(lines[0]).not.toContain(secret);
  });
});

describe("a request's logger", () => {
  function appWithLines() {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('test', 'warn', 'json', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const child = vi.spyOn(logger, 'child');
    const app = createHttpApp({ logger });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/noisy', async (request) => {
      request.log.info('below the level');
      request.log.warn({ body: { password: 'hunter2' } }, 'noisy');
      request.log.child({ step: 'inner' }).error('inner');
      return { ok: true };
    });
    return { app, lines, child };
  }

  it('is made only when the request writes a line, and then carries its request and correlation ids', async () => {
    const { app, lines, child } = appWithLines();
    await app.ready(); // (plugins get loggers of their own at start)
    child.mockClear();
    expect((await app.inject({ method: 'GET', url: '/quiet', headers: { 'x-correlation-id': 'corr-1' } })).statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);

    const noisy = await app.inject({ method: 'GET', url: '/noisy', headers: { 'x-correlation-id': 'corr-2', 'x-request-id': 'req-2' } });
    expect(noisy.statusCode).toBe(200);
    expect(lines).toMatchObject([
      { msg: 'noisy', reqId: 'req-2', correlationId: 'corr-2', body: { password: '[redacted]' } },
      { msg: 'inner', reqId: 'req-2', correlationId: 'corr-2', step: 'inner' },
    ]);
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });

  it("logs a request's path and its query's names, never what was asked for", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger('test', 'info', 'json', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const app = createHttpApp({ logger });
    app.get('/api/admin/users', async () => ({ ok: true }));
    expect((await app.inject({ method: 'GET', url: '/api/admin/users?q=jane.doe@example.com&limit=50' })).statusCode).toBe(200);
    const urls = lines.flatMap((line) => ((line.req as { url?: string } | undefined)?.url ? [(line.req as { url: string }).url] : []));
    expect(urls).toContain('/api/admin/users?q=[redacted]&limit=[redacted]');
    expect(JSON.stringify(lines)).not.toContain('jane.doe');
  });
});
