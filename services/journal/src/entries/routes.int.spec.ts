import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newParticipant, startJournal, type Journal, type Participant } from '../test/helpers.ts';
import { calendarDateIn } from '@sleepweave/contracts';

let env: Journal;
/** One participant for every refused request (identity limits registrations per IP). */
let refused: Participant;
beforeAll(async () => {
  env = await startJournal();
  refused = await newParticipant(env);
});
afterAll(async () => {
  await env?.cleanup();
});

const post = (headers: Record<string, string>, payload: unknown) =>
  env.journal.app.inject({ method: 'POST', url: '/api/journal/entry', headers, payload: payload as object });
const list = (headers: Record<string, string>) => env.journal.app.inject({ method: 'GET', url: '/api/journal/entries', headers });

describe('POST /api/journal/entry', () => {
  it("saves her entry with today's date in her timezone; a userId or date in the body is ignored", async () => {
    const maya = await newParticipant(env, 'America/Los_Angeles');
    const before = calendarDateIn('America/Los_Angeles', new Date());
    const response = await post(maya.headers, {
      affirmation: ' I am allowed to rest. ',
      gratitude: 'A cool night.',
      forgiveness: 'I forgive myself for the sleepless hours.',
      userId: '00000000-0000-4000-8000-000000000000',
      date: '1999-12-31',
    });
    const after = calendarDateIn('America/Los_Angeles', new Date());

    expect(response.statusCode).toBe(201);
    const entry = response.json();
    expect(entry).toMatchObject({
      affirmation: 'I am allowed to rest.',
      gratitude: 'A cool night.',
      forgiveness: 'I forgive myself for the sleepless hours.',
    });
    expect([before, after]).toContain(entry.date);
    const [row] = await env.journal.deps.sql`select user_id from journal_entries where id = ${entry.id}`;
    expect(row?.user_id).toBe(maya.userId);
  });

  it('sent again with its Idempotency-Key (an answer lost after the write): the entry the first try wrote, once', async () => {
    const maya = await newParticipant(env);
    const entry = { affirmation: 'I rest.', gratitude: 'Linen.', forgiveness: 'The 3am me.' };
    const key = { ...maya.headers, 'idempotency-key': randomUUID() };
    const [first, again] = [await post(key, entry), await post(key, entry)];
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual(first.json());
    // at once too (a double send): one entry
    const both = { ...maya.headers, 'idempotency-key': randomUUID() };
    const together = await Promise.all([post(both, entry), post(both, entry)]);
    expect(together.map((r) => r.statusCode)).toEqual([201, 201]);
    expect((await list(maya.headers)).json()).toHaveLength(2);
    // the same key for another entry is refused, and writes nothing
    const reused = await post(key, { ...entry, gratitude: 'Something else.' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error).toBe('idempotency_key_reused');
    // another participant's same key makes her own entry
    const other = await newParticipant(env);
    expect((await post({ ...other.headers, 'idempotency-key': key['idempotency-key'] }, entry)).statusCode).toBe(201);
    expect((await list(maya.headers)).json()).toHaveLength(2);
    // without a key, each send is a new entry (the spec's call); a key that is no UUID is a 400
    expect((await post({ ...maya.headers, 'idempotency-key': 'again' }, entry)).statusCode).toBe(400);
  });

  it('answers 401 when her account is deleted between her entry and its reading again (it answered 201 with no entry)', async () => {
    const nora = await newParticipant(env);
    const { sql } = env.journal.deps;
    // Her deletion, committed as her entry commits: it and she are gone when the route reads it again.
    await sql.unsafe(`
      create function test_deleted_meanwhile() returns trigger language plpgsql as $$
      begin
        insert into deleted_users (user_id, deleted_at) values (new.user_id, now());
        delete from journal_entries where id = new.id;
        return null;
      end $$;
      create trigger test_deleted_meanwhile after insert on journal_entries
        for each row when (new.user_id = '${nora.userId}') execute function test_deleted_meanwhile()`);
    try {
      const response = await post(nora.headers, { gratitude: 'rain' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'unauthorized', message: 'This account has been deleted.' });
    } finally {
      await sql.unsafe('drop trigger test_deleted_meanwhile on journal_entries; drop function test_deleted_meanwhile()');
    }
  });

  it('answers 401 without a session', async () => {
    const response = await post({}, { affirmation: 'hello' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('unauthorized');
  });

  it.each([
    [
      'blank reflections',
      { affirmation: '', gratitude: '  ', forgiveness: '\n' },
      "Please write at least one of Today's Affirmation, Gratitude or Forgiveness.",
    ],
    ['no fields at all', {}, "Please write at least one of Today's Affirmation, Gratitude or Forgiveness."],
    [
      '2,001 characters of forgiveness',
      { affirmation: 'ok', forgiveness: 'x'.repeat(2001) },
      'forgiveness: Forgiveness must be at most 2,000 characters',
    ],
    [
      '2,001 characters of affirmation',
      { affirmation: 'x'.repeat(2001) },
      "affirmation: Today's Affirmation must be at most 2,000 characters",
    ],
    ['gratitude that is not text', { gratitude: ['not', 'text'] }, 'gratitude: Gratitude must be text'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_label, payload, message) => {
    const response = await post(refused.headers, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation', message });
    expect((await list(refused.headers)).json()).toEqual([]);
  });

  it('accepts exactly 2,000 characters', async () => {
    const maya = await newParticipant(env);
    const response = await post(maya.headers, { gratitude: 'g'.repeat(2000) });
    expect(response.statusCode).toBe(201);
    expect(response.json().gratitude).toHaveLength(2000);
  });

  it('answers 503 while her profile has not reached the journal yet', async () => {
    const maya = await newParticipant(env);
    await env.journal.deps.sql`delete from user_directory where user_id = ${maya.userId}`;
    const response = await post(maya.headers, { affirmation: 'hello' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'unavailable',
      message: 'Your profile is still being set up. Please try again in a moment.',
    });
    const [count] = await env.journal.deps
      .sql`select count(*)::int as n from events where stream_id like ${`journal_entry:${maya.userId}:%`}`;
    expect(count?.n).toBe(0);
  });
});

describe('GET /api/journal/entries', () => {
  it('lists only her own entries, newest first; several on one day are kept', async () => {
    const maya = await newParticipant(env);
    const ines = await newParticipant(env);
    for (const text of ['first', 'second', 'third']) {
      expect((await post(maya.headers, { affirmation: `maya ${text}` })).statusCode).toBe(201);
    }
    expect((await post(ines.headers, { gratitude: 'ines only' })).statusCode).toBe(201);

    const mine = await list(maya.headers);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().map((e: { affirmation: string }) => e.affirmation)).toEqual(['maya third', 'maya second', 'maya first']);
    expect(JSON.stringify(mine.json())).not.toContain('ines only');

    const hers = (await list(ines.headers)).json();
    expect(hers).toHaveLength(1);
    expect(hers[0]).toMatchObject({ affirmation: '', gratitude: 'ines only', forgiveness: '' });
    expect(Object.keys(hers[0]).sort()).toEqual(['affirmation', 'createdAt', 'date', 'forgiveness', 'gratitude', 'id']);
  });

  it('orders by her day first: an older day comes after a newer one whatever the write order', async () => {
    const maya = await newParticipant(env);
    const today = (await post(maya.headers, { affirmation: 'today' })).json();
    // An entry of an earlier day, written later (as a projection rebuild or a timezone change could order them).
    await env.journal.deps.sql`
      insert into journal_entries (id, user_id, date, affirmation, gratitude, forgiveness, created_at)
      values (gen_random_uuid(), ${maya.userId}, ${today.date}::date - 1, 'yesterday', '', '', now() + interval '1 minute')`;
    const entries = (await list(maya.headers)).json();
    expect(entries.map((e: { affirmation: string }) => e.affirmation)).toEqual(['today', 'yesterday']);
  });

  it('carries her newest 365 entries', async () => {
    const maya = await newParticipant(env);
    // 366 days of entries, one a day, ending today (read-model rows: the cap is the list's).
    await env.journal.deps.sql`
      insert into journal_entries (id, user_id, date, affirmation, gratitude, forgiveness, created_at)
      select gen_random_uuid(), ${maya.userId}, current_date - n, 'day ' || n, '', '', now() - n * interval '1 day'
      from generate_series(0, 365) as n`;
    const entries = (await list(maya.headers)).json() as { affirmation: string }[];
    expect(entries).toHaveLength(365);
    expect(entries[0]!.affirmation).toBe('day 0');
    expect(entries.at(-1)!.affirmation).toBe('day 364');
  });

  it('answers 401 without a session', async () => {
    expect((await list({})).statusCode).toBe(401);
  });
});

describe('GET /api/journal/entries, paged (Growth)', () => {
  it('limit and the X-Next-Cursor cursor page through every entry once, in the order of the whole list', async () => {
    const maya = await newParticipant(env);
    const reflections = { affirmation: 'I rest.', gratitude: 'Cool sheets.', forgiveness: 'I forgive the night.' };
    for (let i = 0; i < 5; i++) expect((await post(maya.headers, reflections)).statusCode).toBe(201);
    const whole = await list(maya.headers);
    expect(whole.headers['x-next-cursor']).toBeUndefined();
    const ids = whole.json().map((e: { id: string }) => e.id);
    expect(ids).toHaveLength(5);

    const seen: string[] = [];
    let url = '/api/journal/entries?limit=2';
    for (let pages = 0; pages < 10; pages++) {
      const page = await env.journal.app.inject({ method: 'GET', url, headers: maya.headers });
      expect(page.statusCode).toBe(200);
      seen.push(...page.json().map((e: { id: string }) => e.id));
      const next = page.headers['x-next-cursor'];
      if (typeof next !== 'string') break;
      url = `/api/journal/entries?limit=2&cursor=${next}`;
    }
    expect(seen).toEqual(ids);
  });

  it('refuses a bad cursor and limit (400 with a message)', async () => {
    const bad = await env.journal.app.inject({ method: 'GET', url: '/api/journal/entries?cursor=e30', headers: refused.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('cursor is not one this server gave: start again without it');
    // of the right shape, in the year 0, which PostgreSQL cannot read: 400, not 500
    for (const key of [
      ['2026-01-01', '0000-01-01T00:00:00Z', '00000000-0000-4000-8000-000000000000'],
      ['0000-01-01', '2026-01-01T00:00:00Z', '00000000-0000-4000-8000-000000000000'],
    ]) {
      const cursor = Buffer.from(JSON.stringify(key)).toString('base64url');
      const forged = await env.journal.app.inject({
        method: 'GET',
        url: `/api/journal/entries?cursor=${cursor}`,
        headers: refused.headers,
      });
      expect(forged.statusCode, cursor).toBe(400);
    }
    const limit = await env.journal.app.inject({ method: 'GET', url: '/api/journal/entries?limit=abc', headers: refused.headers });
    expect(limit.statusCode).toBe(400);
    expect(limit.json().message).toMatch(/limit must be a whole number/);
  });
});

describe('the limit on entries', () => {
  it('refuses a user her entries beyond JOURNAL_ENTRY_LIMIT_PER_HOUR with a sentence, counts no refused body, and leaves others alone', async () => {
    const limited = await startJournal({ JOURNAL_ENTRY_LIMIT_PER_HOUR: '2' });
    try {
      const [maya, ines] = [await newParticipant(limited), await newParticipant(limited)];
      const write = (who: Participant, gratitude: string) =>
        limited.journal.app.inject({ method: 'POST', url: '/api/journal/entry', headers: who.headers, payload: { gratitude } });
      for (let i = 0; i < 3; i++) expect((await write(maya, '   ')).statusCode).toBe(400);
      expect((await write(maya, 'one')).statusCode).toBe(201);
      expect((await write(maya, 'two')).statusCode).toBe(201);
      const refused = await write(maya, 'three');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({
        error: 'too_many_requests',
        message: 'You can save up to 2 journal entries an hour. Please try again later.',
      });
      expect((await write(ines, 'Ines is not limited by Maya')).statusCode).toBe(201);
      const entries = await limited.journal.app.inject({ method: 'GET', url: '/api/journal/entries', headers: maya.headers });
      expect(
        entries
          .json()
          .map((entry: { gratitude: string }) => entry.gratitude)
          .sort(),
      ).toEqual(['one', 'two']);
    } finally {
      await limited.cleanup();
    }
  });
});
