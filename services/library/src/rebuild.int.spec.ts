import { rebuildAndSnapshot } from '@sleepweave/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, newArticle, startLibrary, type Library } from './test/helpers.ts';

let library: Library;
beforeAll(async () => {
  library = await startLibrary();
});
afterAll(async () => {
  await library?.cleanup();
});

describe('rebuilding every read model', () => {
  it('gives the same cards, seeded, published and revised, from the events', async () => {
    const admin = bearer(accessToken('admin'));
    const created = await library.app.inject({ method: 'POST', url: '/api/library/cards', headers: admin, payload: newArticle() });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const revised = await library.app.inject({
      method: 'PUT',
      url: `/api/library/card/${id}`,
      headers: admin,
      payload: newArticle({ title: 'Evening rituals, revised' }),
    });
    expect(revised.statusCode).toBe(200);

    const { before, after } = await rebuildAndSnapshot(library);
    expect(after).toEqual(before);
    expect(after.library_cards!.length).toBeGreaterThan(15); // the seed articles and this one
    expect(JSON.stringify(after.library_cards)).toContain('Evening rituals, revised');
  });
});
