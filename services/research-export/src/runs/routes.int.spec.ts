/**
 * The research runs: requested by an admin or by the nightly schedule (once per date,
 * however many instances), run one at a time by the worker, recorded with their end, their
 * zip kept for download (the newest RESEARCH_RUNS_KEPT). The zip's content is tested in
 * export/; here a run builds a small zip of its own.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { calendarDateIn } from '@sleepweave/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResearchExportContext } from '../context.ts';
import { addMember, bearer, consent, night, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { testEnvelope } from '@sleepweave/bus/testing';
import { FILE_REMOVED, NO_LATEST_FILE } from './routes.ts';
import { runCommand } from '@sleepweave/service-kit';
import { runDecider } from './business-logic.ts';
import { startRun } from './commands.ts';
import { runStreamId } from './run.ts';
import { INTERRUPTED_MESSAGE, LOCK_LOST_MESSAGE, RUN_LOCK, startRunWorker, type BuildRun } from './worker.ts';

const admin = bearer(randomUUID(), 'admin');
const participant = bearer(randomUUID());
const summary = { participantsIncluded: 0, participantsExcluded: 0, nights: 0, qaHeadline: 'No nights yet.', primary: [] };
const running: ResearchExport[] = [];
/** Instances started on another's database and bus: stopped first, and never cleaned up (their owner drops both). */
const sharing: ResearchExport[] = [];

afterEach(async () => {
  for (const service of sharing.splice(0)) await service.stop();
  for (const service of running.splice(0)) await service.cleanup();
});

/** A service whose worker builds runs with `build` (polling every 100 ms). */
async function start(build: BuildRun, env: NodeJS.ProcessEnv = {}, prefixes: NodeJS.ProcessEnv = {}) {
  const service = await startResearchExport(
    { ...env, ...prefixes },
    {},
    {
      workers: (ctx: ResearchExportContext) => {
        const worker = startRunWorker(ctx, build, { pollMs: 100 });
        ctx.wakeRunWorker = worker.wake;
        return [worker];
      },
    },
  );
  (Object.keys(prefixes).length > 0 ? sharing : running).push(service);
  return service;
}

const smallZip: BuildRun = async (_ctx, now) => ({
  zip: Buffer.from(`zip of ${now.toISOString()}`),
  fileName: `sleepweave-research-${now.toISOString().slice(0, 10)}.zip`,
  summary,
});

async function runs(service: ResearchExport) {
  return (await service.app.inject({ method: 'GET', url: '/api/admin/research/runs', headers: admin })).json() as {
    id: string;
    status: string;
    trigger: string;
    failure: string | null;
    downloadable: boolean;
  }[];
}

async function finished(service: ResearchExport, id: string) {
  await expect
    .poll(async () => (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}`, headers: admin })).json().status, {
      timeout: 10_000,
    })
    .toMatch(/finished|failed/);
  return (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}`, headers: admin })).json();
}

describe('research runs', () => {
  it('an admin starts one; it runs, is recorded, and its zip downloads under its name', async () => {
    let askedAt: Date | undefined;
    const service = await start(async (ctx, now, requestedAt) => {
      askedAt = requestedAt;
      return smallZip(ctx, now, requestedAt);
    });
    expect(
      (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: participant, payload: {} })).statusCode,
    ).toBe(403);
    expect((await service.app.inject({ method: 'GET', url: '/api/admin/research/runs', headers: participant })).statusCode).toBe(403);

    const posted = await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} });
    expect(posted.statusCode).toBe(202);
    const { id } = posted.json();
    const run = await finished(service, id);
    expect(run).toMatchObject({ id, trigger: 'admin', status: 'finished', failure: null, downloadable: true, summary });
    expect(run.durationMs).toBeGreaterThanOrEqual(0);
    // the build was told when the run was asked for (its file is dated by it)
    expect(askedAt?.toISOString()).toBe(run.requestedAt);

    const download = await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}/download`, headers: admin });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/zip');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${run.fileName}"`);
    expect(download.body).toMatch(/^zip of /);
    const latest = await service.app.inject({ method: 'GET', url: '/api/admin/research/latest/download', headers: admin });
    expect(latest.body).toBe(download.body);
    expect((await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${randomUUID()}`, headers: admin })).statusCode).toBe(
      404,
    );
    expect((await service.app.inject({ method: 'GET', url: '/api/admin/research/runs/nope', headers: admin })).statusCode).toBe(404);
  });

  it('says why there is nothing to download: no such run, or no run with a zip yet', async () => {
    const service = await start(smallZip);
    const latest = await service.app.inject({ method: 'GET', url: '/api/admin/research/latest/download', headers: admin });
    expect(latest.statusCode).toBe(404);
    expect(latest.json().message).toBe(NO_LATEST_FILE);
    for (const id of [randomUUID(), 'zzz']) {
      const none = await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}/download`, headers: admin });
      expect(none.statusCode).toBe(404);
      expect(none.json().message).toBe('No such research run.');
    }
  });

  it('records each download of a zip in the audit trail before sending it, and shows it to a participant whose nights it held', async () => {
    const service = await start(smallZip);
    const her = await addMember(service);
    await consent(service, her, '2026-10-01');
    await service.producers.publish(
      testEnvelope('study.sleep_log.recorded', night(her, { date: '2026-10-01', studyDay: 1, phase: 'polyester' })),
    );
    await waitUntil(async () => (await service.deps.sql`select 1 from research_nights where user_id = ${her}`).length === 1, 'her night');
    const posted = await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} });
    const { id } = posted.json();
    await finished(service, id);
    const downloads = async () =>
      (await service.deps.sql`select 1 from admin_audit where action = 'research_downloaded' and subject_id is null`).length;
    const before = await downloads();
    expect(
      (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${randomUUID()}/download`, headers: admin })).statusCode,
    ).toBe(404);
    expect(await downloads()).toBe(before); // nothing sent, nothing recorded
    expect((await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}/download`, headers: admin })).statusCode).toBe(
      200,
    );
    expect((await service.app.inject({ method: 'GET', url: '/api/admin/research/latest/download', headers: admin })).statusCode).toBe(200);
    expect(await downloads()).toBe(before + 2);
    const { fileName } = (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}`, headers: admin })).json();
    const trail = (await service.app.inject({ method: 'GET', url: '/api/admin/audit?limit=2', headers: admin })).json();
    // each names the zip that went out
    expect(trail.map((e: { action: string; subject: unknown; fileName: string }) => [e.action, e.subject, e.fileName])).toEqual([
      ['research_downloaded', null, fileName],
      ['research_downloaded', null, fileName],
    ]);
    const seen = async (who: string) =>
      (await service.app.inject({ method: 'GET', url: '/api/research/audit/me', headers: bearer(who) }))
        .json()
        .map((e: { action: string }) => e.action);
    expect(await seen(her)).toEqual(['research_downloaded', 'research_downloaded']);

    // Whose first night was saved after the run finished: its zip, downloaded now, holds none of hers.
    const late = await addMember(service);
    await consent(service, late, '2026-10-01');
    await service.producers.publish(
      testEnvelope(
        'study.sleep_log.recorded',
        night(late, { date: '2026-10-01', studyDay: 1, phase: 'polyester', recordedAt: new Date().toISOString() }),
      ),
    );
    await waitUntil(async () => (await service.deps.sql`select 1 from research_nights where user_id = ${late}`).length === 1, 'her night');
    expect((await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}/download`, headers: admin })).statusCode).toBe(
      200,
    );
    expect(await seen(late)).toEqual([]);
    expect(await seen(her)).toHaveLength(3);
    // a run made since holds her night
    const again = (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json();
    await finished(service, again.id);
    expect((await service.app.inject({ method: 'GET', url: '/api/admin/research/latest/download', headers: admin })).statusCode).toBe(200);
    expect(await seen(late)).toEqual(['research_downloaded']);
  });

  it('removes the zips that may hold a participant who deleted her account, after the run being made; earlier ones stay', async () => {
    let gate: Promise<void> | null = null;
    const service = await start(async (ctx, now) => {
      if (gate) await gate;
      return smallZip(ctx, now, now);
    });
    const userId = await addMember(service);
    await consent(service, userId, '2026-10-01'); // consented 2026-10-01T21:00Z
    await expect.poll(async () => (await service.deps.sql`select 1 from research_participants where user_id = ${userId}`).length).toBe(1);
    const request = async () =>
      (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json().id as string;
    // a run made before she consented cannot hold her
    const before = await request();
    await finished(service, before);
    await service.deps.sql`update research_runs set started_at = '2026-09-30T00:00:00Z' where id = ${before}`;
    // one started a moment before her consent was stamped (another service's clock), its
    // snapshot taken after: it may hold her
    const justBefore = await request();
    await finished(service, justBefore);
    await service.deps.sql`update research_runs set started_at = '2026-10-01T20:59:58Z' where id = ${justBefore}`;
    // a run being made, its snapshot holding her, when her deletion comes
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    const during = await request();
    await expect
      .poll(
        async () => (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${during}`, headers: admin })).json().status,
      )
      .toBe('running');
    await service.producers.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // her deletion waits for the run
    expect(await service.deps.sql`select 1 from deleted_users where user_id = ${userId}`).toHaveLength(0);
    open();
    await expect
      .poll(async () => (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${during}`, headers: admin })).json(), {
        timeout: 10_000,
      })
      .toMatchObject({ status: 'finished', downloadable: false, fileRemoved: true });
    expect((await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${before}`, headers: admin })).json()).toMatchObject({
      downloadable: true,
      fileRemoved: false,
    });
    expect(
      (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${justBefore}`, headers: admin })).json(),
    ).toMatchObject({ downloadable: false, fileRemoved: true });
    const removed = await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${during}/download`, headers: admin });
    expect(removed.statusCode).toBe(404);
    expect(removed.json().message).toBe(FILE_REMOVED);
    const latest = await service.app.inject({ method: 'GET', url: '/api/admin/research/latest/download', headers: admin });
    const kept = await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${before}/download`, headers: admin });
    expect(latest.body).toBe(kept.body);
  });

  it('migration 006 removes the zips kept from runs started before some deletion, once', async () => {
    const service = await start(smallZip);
    const request = async () =>
      (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json().id as string;
    const old = await request();
    await finished(service, old);
    const recent = await request();
    await finished(service, recent);
    const { sql } = service.deps;
    await sql`update research_runs set started_at = '2026-01-01T00:00:00Z' where id = ${old}`;
    // someone deleted after the old run started (she may be in it), before the recent one
    await sql`insert into deleted_users (user_id, deleted_at) values (${randomUUID()}, '2026-02-01T00:00:00Z')`;
    await sql.unsafe(readFileSync(new URL('../../migrations/006_erase_zips_of_deleted.sql', import.meta.url), 'utf8'));
    const run = async (id: string) =>
      (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${id}`, headers: admin })).json();
    expect(await run(old)).toMatchObject({ downloadable: false, fileRemoved: true });
    expect(await run(recent)).toMatchObject({ downloadable: true, fileRemoved: false });
  });

  it('refuses a second run while one is queued or running (409), and says why', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const service = await start(async (ctx, now) => {
      await held;
      return smallZip(ctx, now, now);
    });
    const first = await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} });
    expect(first.statusCode).toBe(202);
    const second = await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('A research run is already queued or running. Please wait for it to finish.');
    release();
    expect((await finished(service, first.json().id)).status).toBe('finished');
    expect((await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).statusCode).toBe(
      202,
    );
  });

  it('records a failed run with its reason, and an interrupted one as failed', async () => {
    const service = await start(async () => {
      throw new Error('the disk is full');
    });
    const { id } = (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json();
    expect(await finished(service, id)).toMatchObject({ status: 'failed', failure: 'Failed: the disk is full', downloadable: false });

    // A run another instance started and never finished (it died): the next worker to hold the lock says so.
    const orphan = randomUUID();
    await runCommand(
      service.context,
      runStreamId(orphan),
      runDecider,
      { type: 'RequestRun', data: { runId: orphan, trigger: 'admin', requestedBy: null, now: new Date() } },
      { metadata: {} },
    );
    await startRun(service.context, orphan, new Date());
    service.context.wakeRunWorker();
    expect(await finished(service, orphan)).toMatchObject({ status: 'failed', failure: INTERRUPTED_MESSAGE });
  });

  it('fails a run whose lock went with its connection meanwhile, keeping no file of it, then runs the next', async () => {
    let cut = true;
    const service = await start(async (ctx, now) => {
      // the database ends the session that holds the run lock (a restart, a network cut)
      if (cut) {
        await ctx.sql`
          select pg_terminate_backend(pid, 5000) from pg_locks
          where locktype = 'advisory' and granted and objsubid = 1
            and objid = (hashtext(${RUN_LOCK})::bigint & 4294967295)::oid
            and database = (select oid from pg_database where datname = current_database())`;
      }
      return smallZip(ctx, now, now);
    });
    const request = async () =>
      (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json().id as string;
    const lost = await request();
    expect(await finished(service, lost)).toMatchObject({ status: 'failed', failure: LOCK_LOST_MESSAGE, downloadable: false });
    expect(await service.deps.sql`select 1 from research_run_files where run_id = ${lost}`).toHaveLength(0);
    cut = false;
    expect(await finished(service, await request())).toMatchObject({ status: 'finished', downloadable: true });
  });

  it('stops within a moment when its database does not answer, but lets a run in progress finish', async () => {
    const service = await start(smallZip);
    // the worker's poll asks the database, which does not answer (away, say): the stop does not wait for it
    const silent = (() => new Promise(() => undefined)) as unknown as ResearchExportContext['sql'];
    const stuck = startRunWorker({ ...service.context, sql: silent }, smallZip, { pollMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const timeout = (ms: number) => new Promise((resolve) => setTimeout(() => resolve('still waiting'), ms));
    const started = Date.now();
    expect(await Promise.race([stuck.stop().then(() => 'stopped'), timeout(5_000)])).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(3_000);

    // a run being built is waited for: its file and its end are written together
    let release!: () => void;
    const slow = await start(async (ctx, now) => {
      await new Promise<void>((resolve) => (release = resolve));
      return smallZip(ctx, now, now);
    });
    const { id } = (await slow.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json();
    await expect.poll(async () => (await runs(slow)).find((run) => run.id === id)?.status, { timeout: 5_000 }).toBe('running');
    let stopped = false;
    const stopping = slow.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(stopped).toBe(false);
    release();
    await stopping;
  });

  it('keeps the zips of the newest runs only; the older runs stay listed', async () => {
    const service = await start(smallZip, { RESEARCH_RUNS_KEPT: '1' });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { id } = (await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: admin, payload: {} })).json();
      await finished(service, id);
      ids.push(id);
    }
    const listed = await runs(service);
    expect(listed.map((r) => [r.id, r.downloadable])).toEqual([
      [ids[1], true],
      [ids[0], false],
    ]);
    expect(
      (await service.app.inject({ method: 'GET', url: `/api/admin/research/runs/${ids[0]}/download`, headers: admin })).statusCode,
    ).toBe(404);
  });

  it('lists the runs newest first a page at a time (X-Next-Cursor), runs requested at the same instant included', async () => {
    const service = await start(smallZip);
    // written as the runs projection writes them: eleven runs, four of them at one instant (to the microsecond)
    await service.deps.sql`
      insert into research_runs (id, trigger, status, requested_at, failure)
      select gen_random_uuid(), 'schedule', 'failed',
        case when i <= 4 then timestamptz '2026-01-10 02:00:00.123456+00' else timestamptz '2026-01-01 02:00:00+00' + i * interval '1 day' end,
        'test'
      from generate_series(1, 11) i`;
    const whole = (await service.app.inject({ method: 'GET', url: '/api/admin/research/runs', headers: admin })).json<{ id: string }[]>();
    expect(whole).toHaveLength(11);
    const paged: string[] = [];
    let cursor = '';
    for (let page = 0; page < 20; page++) {
      const response = await service.app.inject({ method: 'GET', url: `/api/admin/research/runs?limit=3${cursor}`, headers: admin });
      expect(response.statusCode).toBe(200);
      paged.push(...response.json<{ id: string }[]>().map((run) => run.id));
      const next = response.headers['x-next-cursor'];
      if (typeof next !== 'string') break;
      cursor = `&cursor=${next}`;
    }
    expect(paged).toEqual(whole.map((run) => run.id));
    const bad = await service.app.inject({ method: 'GET', url: '/api/admin/research/runs?cursor=bm9wZQ', headers: admin });
    expect(bad.statusCode).toBe(400);
  });

  it('says when the nightly run starts, to admins only; null when it is off', async () => {
    const nightly = await start(smallZip, { RESEARCH_EXPORT_TIME: '03:30', RESEARCH_EXPORT_TIMEZONE: 'Europe/London' });
    const asked = await nightly.app.inject({ method: 'GET', url: '/api/admin/research/schedule', headers: admin });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ nightly: { time: '03:30', timeZone: 'Europe/London' } });
    const refused = await nightly.app.inject({ method: 'GET', url: '/api/admin/research/schedule', headers: participant });
    expect(refused.statusCode).toBe(403);
    const off = await start(smallZip, { RESEARCH_EXPORT_TIME: 'off' });
    expect((await off.app.inject({ method: 'GET', url: '/api/admin/research/schedule', headers: admin })).json()).toEqual({
      nightly: null,
    });
  });

  it('makes no nightly run for a time before its database was made: a new system waits for the next night', async () => {
    // due since 00:00 today, but the database is a few moments old
    const service = await start(smallZip, { RESEARCH_EXPORT_TIME: '00:00', RESEARCH_EXPORT_TIMEZONE: 'UTC' });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // ten polls of its worker
    expect(await runs(service)).toEqual([]);
    expect(await service.deps.sql`select 1 from events where stream_id like 'research_schedule:%'`).toHaveLength(0);
  });

  it('queues the nightly run once per date, however many instances run', async () => {
    const zone = 'UTC';
    const env = { RESEARCH_EXPORT_TIME: '00:00', RESEARCH_EXPORT_TIMEZONE: zone };
    // a database made yesterday, so that today's run (due since 00:00) is owed
    const first = await start(smallZip, { ...env, RESEARCH_EXPORT_TIME: 'off' });
    await first.deps.sql`update schema_migrations set applied_at = applied_at - interval '1 day'`;
    // two instances on the same database and bus, both asking
    const { DB_PREFIX, BUS_PREFIX } = first.deps.config;
    await start(smallZip, env, { DB_PREFIX, BUS_PREFIX });
    await start(smallZip, env, { DB_PREFIX, BUS_PREFIX });
    await expect.poll(async () => (await runs(first)).filter((r) => r.status === 'finished').length, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500)); // several more polls of both workers
    const nightly = (await runs(first)).filter((r) => r.trigger === 'schedule');
    expect(nightly).toHaveLength(1);
    const scheduled = await first.deps.sql`select stream_id from events where stream_id like 'research_schedule:%'`;
    expect(scheduled.map((r) => r.stream_id)).toEqual([`research_schedule:${calendarDateIn(zone, new Date())}`]);
  });
});
