import { ConcurrencyError } from '@sleepweave/event-store';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conflict } from './errors.ts';
import { createHttpApp } from './http.ts';

function app() {
  const instance = createHttpApp({ logger: pino({ level: 'silent' }) });
  instance.post('/validated', { schema: { body: z.object({ name: z.string().min(1, 'Name is required') }) } }, async () => ({ ok: true }));
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
});
