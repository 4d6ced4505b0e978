import { afterAll, describe, expect, it } from 'vitest';
import { readLibraryConfig } from '../config.ts';
import { testEnv } from '@sleepweave/service-kit/testing';
import { startTestService } from '@sleepweave/service-kit/testing';
import { testLibraryService } from '../test/helpers.ts';
import { SEED_ARTICLES } from './seed/index.ts';

// One database for the whole file: the instances below share it, as replicas would.
const env = testEnv();
const start = () => startTestService(testLibraryService, readLibraryConfig(env), { background: false });
type Instance = Awaited<ReturnType<typeof start>>;
let last: Instance | undefined;

afterAll(async () => {
  await last?.cleanup();
});

async function counts(instance: Instance) {
  const [events] = await instance.deps.sql<{ published: number; streams: number; system: number }[]>`
    select count(*)::int as published, count(distinct stream_id)::int as streams,
           count(*) filter (where data -> 'publishedBy' = 'null'::jsonb)::int as system
    from events where type = 'ArticlePublished'`;
  const [cards] = await instance.deps.sql<{ count: number }[]>`select count(*)::int as count from library_cards`;
  return { ...events!, cards: cards!.count };
}

describe('seeding', () => {
  it('publishes each seed article once: on the first start, not again on concurrent starts or restarts', async () => {
    const expected = {
      published: SEED_ARTICLES.length,
      streams: SEED_ARTICLES.length,
      system: SEED_ARTICLES.length,
      cards: SEED_ARTICLES.length,
    };

    // Two instances starting at the same moment on an empty database.
    const [a, b] = await Promise.all([start(), start()]);
    expect(await counts(a)).toEqual(expected);
    await a.stop();
    await b.stop();

    // A restart.
    last = await start();
    expect(await counts(last)).toEqual(expected);
    const [card] = await last.deps.sql`select title, created_by from library_cards where id = ${SEED_ARTICLES[0]!.id}`;
    expect(card).toEqual({ title: SEED_ARTICLES[0]!.content.title, created_by: null });
  });
});
