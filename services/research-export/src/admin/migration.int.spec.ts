/**
 * Migration 003 on a database that already holds users (as one deployed before it does):
 * everyone gets her row of admin_user_order, so no one leaves the list, and the compliance,
 * phase and follow-up of the enrolled are computed by the first page that needs them.
 */
import { randomUUID } from 'node:crypto';
import { addDays, currentNight } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../test/helpers.ts';
import { listUsers } from './queries.ts';

let db: Awaited<ReturnType<typeof databaseBeforeMigration>>;
let sql: Sql;

beforeAll(async () => {
  db = await databaseBeforeMigration('admin_migration', '003', 2);
  sql = db.sql;
});
afterAll(async () => {
  await db?.drop();
});

describe('migration 003 (admin_user_order)', () => {
  it('gives everyone already there her row; the first page that needs them computes the figures of the enrolled', async () => {
    const now = new Date();
    const today = currentNight('Europe/London', now);
    const [enrolled, member] = [randomUUID(), randomUUID()];
    for (const [userId, first] of [
      [enrolled, 'Ena'],
      [member, 'Mia'],
    ] as const) {
      await sql`
        insert into user_directory (user_id, email, first_name, last_name, timezone, role, registered_at)
        values (${userId}, ${`${first}@example.com`}, ${first}, 'Before', 'Europe/London', 'participant', now())`;
    }
    // day 10 of her study, nights 1 to 5 logged: 5 of 9, to follow up
    const start = addDays(today, -9);
    await sql`
      insert into research_participants (user_id, research_id, study_start_date, consent_version, consented_at)
      values (${enrolled}, 'SW-00000001', ${start}, '1.0', now())`;
    await sql`
      insert into admin_night_activity
        (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
      values (${enrolled}, 5, 5, ${addDays(start, 4)}, true, ${addDays(start, 3)}, true, now())`;

    await db.migrateRest();

    const all = await listUsers(sql, now, { sort: 'joined', order: 'desc', limit: 10 });
    expect(all.items.map((u) => u.id).sort()).toEqual([enrolled, member].sort());
    const byCompliance = await listUsers(sql, now, { sort: 'compliance', order: 'desc', limit: 10 });
    expect(byCompliance.items.map((u) => u.id)).toEqual([enrolled, member]);
    const [row] = await sql`
      select last_night_date::text as last_night_date, compliance, phase, follow_up, compliance_on::text as compliance_on
      from admin_user_order where user_id = ${enrolled}`;
    expect(row).toEqual({
      last_night_date: addDays(start, 4),
      compliance: 5 / 9,
      phase: 'polyester',
      follow_up: true,
      compliance_on: today,
    });
    const [other] = await sql`select compliance, phase, follow_up, compliance_on from admin_user_order where user_id = ${member}`;
    expect(other).toEqual({ compliance: null, phase: 'not_enrolled', follow_up: false, compliance_on: null });
  });
});

describe('migration 010 (her third latest night)', () => {
  it('fills it in from her nights already there', async () => {
    const before = await databaseBeforeMigration('admin_third_night', '010', 2);
    try {
      const userId = randomUUID();
      for (const [date, day] of [
        ['2026-10-01', 1],
        ['2026-10-02', 2],
        ['2026-10-03', 3],
        ['2026-10-04', 4],
      ] as const) {
        await before.sql`
          insert into research_nights (log_id, user_id, date, study_day, phase, recommended_material, recorded_at)
          values (${randomUUID()}, ${userId}, ${date}, ${day}, 'polyester', '100% Polyester', now())`;
      }
      await before.sql`
        insert into admin_night_activity
          (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
        values (${userId}, 4, 4, '2026-10-04', true, '2026-10-03', true, now())`;
      await before.migrateRest();
      const [row] = await before.sql`
        select third_night_date::text as date, third_night_in_study as in_study from admin_night_activity where user_id = ${userId}`;
      expect(row).toEqual({ date: '2026-10-02', in_study: true });
    } finally {
      await before.drop();
    }
  });
});
