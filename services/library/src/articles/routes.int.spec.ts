import { randomUUID } from 'node:crypto';
import type { EventEnvelope, LibraryCard } from '@sleepweave/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessToken, bearer, newArticle, startLibrary, uniqueWord, type Library } from '../test/helpers.ts';
import { SEED_ARTICLES } from './seed/index.ts';

let library: Library;
const admin = accessToken('admin');
const participant = accessToken('participant');

beforeAll(async () => {
  library = await startLibrary();
});
afterAll(async () => {
  await library?.cleanup();
});

const get = (url: string, token = participant) => library.app.inject({ method: 'GET', url, headers: bearer(token) });
const search = async (words: string) => {
  const response = await get(`/api/library/cards?search=${encodeURIComponent(words)}`);
  expect(response.statusCode).toBe(200);
  return response.json() as LibraryCard[];
};
const create = (body: unknown, token = admin) =>
  library.app.inject({ method: 'POST', url: '/api/library/cards', headers: bearer(token), payload: body as object });
const update = (id: string, body: unknown, token = admin) =>
  library.app.inject({ method: 'PUT', url: `/api/library/card/${id}`, headers: bearer(token), payload: body as object });

async function published(overrides: Parameters<typeof newArticle>[0] = {}) {
  const response = await create(newArticle(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as LibraryCard & { bodyHtml: string };
}

describe('GET /api/library/cards', () => {
  it('answers 401 without a session', async () => {
    const response = await library.app.inject({ method: 'GET', url: '/api/library/cards' });
    expect(response.statusCode).toBe(401);
  });

  it('lists every card without a search (the seed articles included), with every card field and no body', async () => {
    const cards = (await get('/api/library/cards')).json() as Record<string, unknown>[];
    expect(cards.length).toBeGreaterThanOrEqual(SEED_ARTICLES.length);
    const linen = cards.find((card) => card.id === SEED_ARTICLES.find((a) => a.content.title.startsWith('Linen'))!.id)!;
    expect(Object.keys(linen).sort()).toEqual(['category', 'createdAt', 'id', 'imagePath', 'summary', 'tags', 'title', 'updatedAt']);
    expect(linen).toMatchObject({ category: 'Fabric info', imagePath: '/api/library/images/linen.svg' });
  });

  it('lists the newest first; the seed articles in their reading order (the study first)', async () => {
    const article = await published();
    const cards = (await get('/api/library/cards')).json() as LibraryCard[];
    expect(cards[0]!.id).toBe(article.id);
    const seedIds = new Set(SEED_ARTICLES.map((a) => a.id));
    expect(cards.filter((c) => seedIds.has(c.id)).map((c) => c.id)).toEqual(SEED_ARTICLES.map((a) => a.id));
  });

  it('treats a punctuation-only search as no search', async () => {
    const all = (await get('/api/library/cards')).json() as LibraryCard[];
    expect((await search(`!?' & :*`)).map((c) => c.id)).toEqual(all.map((c) => c.id));
  });

  it('finds an article by the prefix of a word, as she types', async () => {
    const word = uniqueWord();
    const article = await published({ bodyHtml: `<p>Notes on ${word} and sleep.</p>` });
    for (const typed of [word.slice(0, 5), word.slice(0, 8), word, `${word.slice(0, 6)} sle`]) {
      expect(
        (await search(typed)).map((c) => c.id),
        typed,
      ).toEqual([article.id]);
    }
  });

  it('finds whole words of any script: with combining marks (नींद), and a capital İ', async () => {
    const word = uniqueWord();
    const article = await published({ title: `नींद और गर्मी ${word}`, summary: `Linen in İstanbul summers, ${word}.` });
    for (const typed of [`नींद ${word}`, `गर्मी ${word}`, `İstanbul ${word}`, `istanbul ${word}`, `ISTANBUL ${word}`]) {
      expect(
        (await search(typed)).map((c) => c.id),
        typed,
      ).toEqual([article.id]);
    }
  });

  it('finds the seed articles by stemmed and partial words', async () => {
    const titles = async (words: string) => (await search(words)).map((c) => c.title);
    expect(await titles('linen')).toContain('Linen: Cool, Breathable and Built to Last');
    expect((await titles('linen'))[0]).toBe('Linen: Cool, Breathable and Built to Last');
    expect(await titles('night swe')).toContain('Hot Flashes and Night Sweats: Getting Through the Night');
    // "the" is an English stop word, but as a prefix it still finds "thermoregulation".
    expect(await titles('the')).toContain('Why Fabric Matters for Sleep');
    expect(await titles('breathing exercises')).toContain('A Two-Minute Breathing Exercise for Bedtime');
  });

  it('finds an article by a tag and by its category', async () => {
    const tag = uniqueWord('tag');
    const article = await published({ tags: ['evening', tag], category: 'Research Studies' });
    expect((await search(tag)).map((c) => c.id)).toEqual([article.id]);
    expect((await search(`research ${tag.slice(0, 6)}`)).map((c) => c.id)).toEqual([article.id]);
  });

  it('ranks a title match above a summary match above a body match', async () => {
    const word = uniqueWord();
    // Created first-to-last in the opposite order of the expected ranking, and the body
    // mentions the word many times: only the weights can put the title first.
    const inBody = await published({ title: 'Body match', bodyHtml: `<p>${`${word} `.repeat(12)}</p>` });
    const inSummary = await published({ title: 'Summary match', summary: `All about ${word}.` });
    const inTitle = await published({ title: `The ${word} guide` });
    expect((await search(word)).map((c) => c.id)).toEqual([inTitle.id, inSummary.id, inBody.id]);
  });

  it('finds the linen article first for "Linen\'s", as for "linen" (the \'s is no word of its own)', async () => {
    const linen = SEED_ARTICLES.find((a) => a.content.title.startsWith('Linen'))!;
    for (const words of ['linen', "Linen's", 'linen’s']) expect((await search(words))[0]?.id, words).toBe(linen.id);
  });

  it('refuses a search longer than 200 characters with a clear 400', async () => {
    const response = await get(`/api/library/cards?search=${'a'.repeat(201)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('search');
  });
});

describe('GET /api/library/card/{id}', () => {
  it('returns the article with its sanitized body', async () => {
    const seed = SEED_ARTICLES[0]!;
    const response = await get(`/api/library/card/${seed.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: seed.id, title: seed.content.title });
    expect(response.json().bodyHtml).toContain('<h2>');
  });

  it("cleans a card stored under older rules with today's: an image at another path of the site goes, from its body and as its picture", async () => {
    const id = randomUUID();
    await library.deps.sql`
      insert into library_cards (id, category, title, summary, body_html, body_text, image_path, tags, created_at, updated_at)
      values (${id}, 'Sleep tips', 'Stored long ago', 'Old rules', '<p>Read me</p><img src="/api/admin/export/users" alt="">', 'Read me',
        '/api/community/thread/5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10', '{}', now(), now())`;
    const response = await get(`/api/library/card/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().bodyHtml).toBe('<p>Read me</p>');
    expect(response.json().imagePath).toBe('');
    const listed = (await get('/api/library/cards?limit=100')).json() as { id: string; imagePath: string }[];
    expect(listed.find((card) => card.id === id)?.imagePath).toBe('');
  });

  it.each([randomUUID(), 'not-a-uuid', '12345', "1' or '1'='1", 'ffffffff-ffff-ffff-ffff-fffffffffffff'])(
    'answers 404 for an unknown or malformed id (%s)',
    async (id) => {
      const response = await get(`/api/library/card/${encodeURIComponent(id)}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: "Sorry, we couldn't find the article you're looking for." });
    },
  );
});

describe('POST /api/library/cards', () => {
  it('refuses a participant with 403, even with a valid article, and stores nothing', async () => {
    const word = uniqueWord();
    const response = await create(newArticle({ title: `Sneaky ${word}` }), participant);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('forbidden');
    expect(await search(word)).toEqual([]);
  });

  it('refuses a participant with 403 before looking at the body', async () => {
    const response = await create({ title: '' }, participant);
    expect(response.statusCode).toBe(403);
  });

  it('refuses without a session (401)', async () => {
    const response = await library.app.inject({ method: 'POST', url: '/api/library/cards', payload: newArticle() });
    expect(response.statusCode).toBe(401);
  });

  it('lets an admin publish; the body is stored sanitized and library.article.published reaches the bus', async () => {
    const seen: EventEnvelope<'library.article.published'>[] = [];
    const watch = await library.deps.bus.watch({
      stream: 'LIBRARY',
      types: ['library.article.published'],
      since: new Date(Date.now() - 60_000),
      handler: (event) => {
        if (event.type === 'library.article.published') seen.push(event as EventEnvelope<'library.article.published'>);
      },
    });
    try {
      const response = await create(
        newArticle({
          title: '  Cooler nights  ',
          bodyHtml:
            '<h2>Heading</h2><p onclick="steal()">Text <a href="javascript:alert(1)">link</a></p><script>alert(1)</script><img src="https://tracker.example/x.gif">',
          tags: ['Linen', ' linen ', 'summer', ''],
        }),
      );
      expect(response.statusCode).toBe(201);
      const article = response.json();
      expect(article).toMatchObject({ title: 'Cooler nights', tags: ['Linen', 'summer'], category: 'Sleep tips' });
      expect(article.bodyHtml).toBe('<h2>Heading</h2><p>Text <a>link</a></p>');
      expect((await get(`/api/library/card/${article.id}`)).json().bodyHtml).toBe(article.bodyHtml);

      await expect.poll(() => seen.some((e) => e.data.articleId === article.id), { timeout: 5_000 }).toBe(true);
      const event = seen.find((e) => e.data.articleId === article.id)!;
      expect(event.source).toBe('library');
      expect(event.data).toMatchObject({
        articleId: article.id,
        title: 'Cooler nights',
        category: 'Sleep tips',
        tags: ['Linen', 'summer'],
      });
      // Other contexts get the card, not the body or who wrote it.
      expect(JSON.stringify(event)).not.toMatch(/bodyHtml|publishedBy/);
    } finally {
      await watch.stop();
    }
  });

  it.each([
    [{ title: '   ' }, 'title: Title is required'],
    [{ category: 'Gossip' }, 'category: Choose one of Fabric info, Sleep tips, Research Studies'],
    [{ imagePath: 'https://images.example/x.png' }, "imagePath: Image path must be one of the library's images"],
    [{ imagePath: '//images.example/x.png' }, "imagePath: Image path must be one of the library's images"],
    [{ imagePath: '/api/library/images/../../etc/passwd' }, "imagePath: Image path must be one of the library's images"],
    [{ imagePath: '/api/admin/export/users' }, "imagePath: Image path must be one of the library's images"],
    [{ summary: 'x'.repeat(601) }, 'summary: Summary must be at most 600 characters'],
    [{ tags: Array.from({ length: 13 }, (_, i) => `tag${i}`) }, 'tags: At most 12 tags'],
    [{ bodyHtml: '<script>alert(1)</script>' }, 'bodyHtml: The body has no text left once unsafe HTML is removed'],
    [
      { imagePath: '/api/library/images/does-not-exist.svg' },
      'imagePath: There is no image /api/library/images/does-not-exist.svg in the library; choose one of ',
    ],
    [{ bodyHtml: `${'<b>'.repeat(101)}deep` }, 'bodyHtml: The body nests its tags more than 100 levels deep'],
    [
      { bodyHtml: '<p>See <img src="/api/library/images/nowhere.svg" alt="x"></p>' },
      'bodyHtml: There is no image /api/library/images/nowhere.svg in the library; choose one of ',
    ],
  ])('refuses %j with a 400 naming the field', async (overrides, message) => {
    const response = await create(newArticle(overrides as never));
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('validation');
    expect(response.json().message).toContain(message);
  });
});

describe('PUT /api/library/card/{id}', () => {
  it('lets an admin revise an article; search follows and library.article.revised reaches the bus', async () => {
    const seen: EventEnvelope<'library.article.revised'>[] = [];
    const watch = await library.deps.bus.watch({
      stream: 'LIBRARY',
      types: ['library.article.revised'],
      since: new Date(Date.now() - 60_000),
      handler: (event) => {
        if (event.type === 'library.article.revised') seen.push(event as EventEnvelope<'library.article.revised'>);
      },
    });
    try {
      const before = uniqueWord();
      const after = uniqueWord();
      const article = await published({ title: `Draft ${before}` });
      const response = await update(article.id, newArticle({ title: `Final ${after}`, category: 'Fabric info' }));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        id: article.id,
        title: `Final ${after}`,
        category: 'Fabric info',
        createdAt: article.createdAt,
      });
      expect(response.json().updatedAt > article.updatedAt).toBe(true);
      expect(await search(before)).toEqual([]);
      expect((await search(after)).map((c) => c.id)).toEqual([article.id]);
      await expect.poll(() => seen.some((e) => e.data.articleId === article.id), { timeout: 5_000 }).toBe(true);
    } finally {
      await watch.stop();
    }
  });

  it('refuses a participant (403) and leaves the article as it was', async () => {
    const article = await published();
    const response = await update(article.id, newArticle({ title: 'Hijacked' }), participant);
    expect(response.statusCode).toBe(403);
    expect((await get(`/api/library/card/${article.id}`)).json().title).toBe(article.title);
  });

  it.each([randomUUID(), 'nope'])('answers 404 for an unknown or malformed id (%s)', async (id) => {
    const response = await update(id, newArticle());
    expect(response.statusCode).toBe(404);
  });
});

describe('GET /api/library/images/{file}', () => {
  it('serves the library’s own SVG illustrations to a signed-in user', async () => {
    const response = await get('/api/library/images/linen.svg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.body).toMatch(/^<svg /);
    expect(response.body).not.toMatch(/<script|href="http/i);
  });

  it.each(['nope.svg', '..%2F..%2Fpackage.json', '%2Fetc%2Fpasswd', 'linen.SVG'])('answers 404 for %s', async (file) => {
    expect((await get(`/api/library/images/${file}`)).statusCode).toBe(404);
  });
});

describe('GET /api/library/cards, paged (Growth)', () => {
  /** Every page from `url` (with limit) following X-Next-Cursor. */
  async function allPages(url: string): Promise<LibraryCard[]> {
    const cards: LibraryCard[] = [];
    let next: string | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const response = await get(next ? `${url}&cursor=${next}` : url);
      expect(response.statusCode).toBe(200);
      cards.push(...(response.json() as LibraryCard[]));
      const header = response.headers['x-next-cursor'];
      if (typeof header !== 'string') return cards;
      next = header;
    }
    throw new Error('more than 100 pages');
  }

  it('browsing and searching page through the same cards, in the same order, as the whole list', async () => {
    const word = uniqueWord();
    for (let i = 0; i < 3; i++) await published({ title: `${word} nights ${i}` });
    const whole = (await get('/api/library/cards')).json() as LibraryCard[];
    expect((await allPages('/api/library/cards?limit=4')).map((c) => c.id)).toEqual(whole.map((c) => c.id));

    const found = await search(word);
    expect(found).toHaveLength(3);
    expect((await allPages(`/api/library/cards?search=${word}&limit=1`)).map((c) => c.id)).toEqual(found.map((c) => c.id));
  });

  it('pages past cards whose titles are as long as a title may be, in any script (a cursor carries the title)', async () => {
    const word = uniqueWord();
    // 200 characters of three bytes each: its cursor is some 900 characters long
    for (const title of [`${word} ${'夜'.repeat(199 - word.length)}`, `${word} ${'сон'.repeat(66)}`.slice(0, 200)]) {
      expect(title.length).toBeLessThanOrEqual(200);
      await published({ title });
    }
    const whole = (await get('/api/library/cards')).json() as LibraryCard[];
    expect((await allPages('/api/library/cards?limit=1')).map((c) => c.id)).toEqual(whole.map((c) => c.id));
    const found = await search(word);
    expect(found).toHaveLength(2);
    expect((await allPages(`/api/library/cards?search=${word}&limit=1`)).map((c) => c.id)).toEqual(found.map((c) => c.id));
  });

  it('refuses a cursor of the other mode or a made-up one (400 with a message); clamps a large limit', async () => {
    const word = uniqueWord();
    await published({ title: `${word} one` });
    await published({ title: `${word} two` });
    const browse = (await get('/api/library/cards?limit=1')).headers['x-next-cursor'];
    expect(typeof browse).toBe('string');
    const mixed = await get(`/api/library/cards?search=${word}&cursor=${String(browse)}`);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().message).toBe('cursor is not one this server gave: start again without it');
    expect((await get('/api/library/cards?cursor=%%%')).statusCode).toBe(400);
    // of the right shape, with a part PostgreSQL cannot read: 400, not 500
    const forged = (key: unknown[]) => Buffer.from(JSON.stringify(key)).toString('base64url');
    const id = '6f1c1c1e-1111-4111-8111-111111111111';
    for (const url of [
      `/api/library/cards?search=${word}&cursor=${forged(['e', '2024-01-01T00:00:00Z', 'a', id])}`,
      `/api/library/cards?search=${word}&cursor=${forged(['1e999', '2024-01-01T00:00:00Z', 'a', id])}`,
      `/api/library/cards?cursor=${forged(['2024-01-01T00:00:00Z', 1, 'a\u0000b', id])}`,
      `/api/library/cards?cursor=${forged(['0000-01-01T00:00:00Z', 1, 'a', id])}`,
      `/api/library/cards?search=${word}&cursor=${forged(['1e-50', '2024-01-01T00:00:00Z', 'a', id])}`,
      `/api/library/cards?cursor=${forged(['2024-01-01T00:00:00Z', 40_000, 'a', id])}`,
      `/api/library/cards?cursor=${forged(['2024-01-01T00:00:00+16:00', 1, 'a', id])}`,
    ]) {
      expect((await get(url)).statusCode, url).toBe(400);
    }
    expect((await get('/api/library/cards?limit=100000')).statusCode).toBe(200);
  });
});
