import { MAX_JSON_DEPTH, UNSAFE_TEXT_MESSAGE } from '@sleepweave/contracts';
import { ConcurrencyError } from '@sleepweave/event-store';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict } from './errors.ts';
import { createHttpApp, NOT_FINITE_MESSAGE } from './http.ts';

function app() {
  const instance = createHttpApp({ logger: pino({ level: 'silent' }) });
  instance.post('/validated', { schema: { body: z.object({ name: z.string().min(1, 'Name is required') }) } }, async () => ({ ok: true }));
  instance.get('/things/:id', async (request) => request.params);
  instance.get('/conflict', async () => {
    throw conflict('Already there.');
  });
  instance.get('/race', async () => {
    throw new ConcurrencyError('thing:1', 3, 4);
  });
  instance.get('/boom', async () => {
    throw new Error('password=hunter2 at db.internal:5432');
  });
  return instance;
}

describe('createHttpApp errors', () => {
  it('answers a schema violation with 400 naming the field', async () => {
    const response = await app().inject({ method: 'POST', url: '/validated', payload: { name: '' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message: 'name: Name is required' });
  });

  it('passes an HttpError through with its status and words', async () => {
    const response = await app().inject({ method: 'GET', url: '/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: 'conflict', message: 'Already there.' });
  });

  it('answers a concurrency conflict with 409', async () => {
    const response = await app().inject({ method: 'GET', url: '/race' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe('conflict');
  });

  it('answers an unexpected error with 500 and no internals', async () => {
    const response = await app().inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(response.json()).toEqual({ error: 'internal', message: 'Something went wrong. Please try again.' });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const response = await app().inject({ method: 'GET', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('not_found');
  });

  it('refuses a NUL, a lone surrogate or bytes that are not UTF-8 in the body, and a NUL in the query or the path, with 400', async () => {
    const send = (payload: string) =>
      app().inject({ method: 'POST', url: '/validated', payload, headers: { 'content-type': 'application/json' } });
    for (const body of ['{"name":"a\\u0000b"}', '{"name":"\\ud800"}', '{"deep":{"list":["ok","\\udc00x"]}}']) {
      const response = await send(body);
      expect(response.statusCode, body).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', message: UNSAFE_TEXT_MESSAGE });
    }
    expect((await send('{"name":"emoji \\ud83d\\ude34 and accents é"}')).statusCode).toBe(200);
    // bytes that are not UTF-8 (they were read as U+FFFD and saved so)
    for (const bytes of [Buffer.from([0xff, 0xfe]), Buffer.from([0xc3]), Buffer.from([0xed, 0xa0, 0x80])]) {
      const payload = Buffer.concat([Buffer.from('{"name":"'), bytes, Buffer.from(' bad"}')]);
      const response = await app().inject({ method: 'POST', url: '/validated', payload, headers: { 'content-type': 'application/json' } });
      expect(response.statusCode, bytes.toString('hex')).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', message: UNSAFE_TEXT_MESSAGE });
    }
    expect((await send('{"name":"accents é, emoji 😴 as UTF-8"}')).statusCode).toBe(200);
    // a byte order mark first is read as none
    expect((await send('\uFEFF{"name":"after a BOM"}')).statusCode).toBe(200);
    expect((await app().inject({ method: 'GET', url: '/conflict?x=%00' })).statusCode).toBe(400);
  });

  it('refuses a number too large to be read (1e999 reads as Infinity, which JSON cannot write again) with 400', async () => {
    for (const body of ['{"name":"a","n":1e999}', '{"name":"a","list":[-1e999]}']) {
      const response = await app().inject({
        method: 'POST',
        url: '/validated',
        payload: body,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, body).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', message: NOT_FINITE_MESSAGE });
    }
  });

  it('refuses JSON nested deeper than MAX_JSON_DEPTH with 400 instead of overflowing the stack', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const response = await app().inject({
      method: 'POST',
      url: '/validated',
      payload: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(`nested deeper than ${MAX_JSON_DEPTH}`);
    // brackets inside strings do not count
    const text = JSON.stringify({ name: '['.repeat(1_000) });
    expect(
      (await app().inject({ method: 'POST', url: '/validated', payload: text, headers: { 'content-type': 'application/json' } }))
        .statusCode,
    ).toBe(200);
  });

  it('answers a body that is not JSON with 400', async () => {
    const response = await app().inject({
      method: 'POST',
      url: '/validated',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('says that a body was asked for when none came, whatever its content type', async () => {
    for (const headers of [{}, { 'content-type': 'application/json' }]) {
      const response = await app().inject({ method: 'POST', url: '/validated', headers });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'validation', message: 'This request needs a JSON body.' });
    }
  });

  it("answers an address that is not valid, and a path parameter longer than any id, in the app's own shape", async () => {
    for (const url of ['/things/%', '/things/%zz']) {
      const response = await app().inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: 'validation', message: 'This address is not valid.' });
    }
    const long = await app().inject({ method: 'GET', url: `/things/${'x'.repeat(120)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toMatchObject({ error: 'not_found' });
  });
});
