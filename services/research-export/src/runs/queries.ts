import { Uuid, type ResearchRun, type ResearchRunSummary } from '@sleepweave/contracts';
import { cursorPart, toPage, type Sql } from '@sleepweave/service-kit';
import { z } from 'zod';
import type { DownloadedRun } from '../admin/audit.ts';

interface RunRow {
  id: string;
  /** requested_at to the microsecond, for the cursor. */
  requested_key: string;
  trigger: ResearchRun['trigger'];
  status: ResearchRun['status'];
  requested_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
  failure: string | null;
  file_name: string | null;
  size_bytes: string | null;
  summary: ResearchRunSummary | null;
  kept: boolean;
  removed: boolean;
}

const toRun = (row: RunRow): ResearchRun => ({
  id: row.id,
  trigger: row.trigger,
  status: row.status,
  requestedAt: row.requested_at.toISOString(),
  startedAt: row.started_at?.toISOString() ?? null,
  finishedAt: row.finished_at?.toISOString() ?? null,
  durationMs: row.duration_ms,
  failure: row.failure,
  fileName: row.file_name,
  sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
  downloadable: row.kept,
  fileRemoved: row.removed,
  summary: row.summary,
});

const RUN_COLUMNS = (sql: Sql) => sql`
  r.id, to_json(r.requested_at) #>> '{}' as requested_key, r.trigger, r.status, r.requested_at, r.started_at, r.finished_at, r.duration_ms, r.failure, r.file_name,
  r.size_bytes::text as size_bytes, r.summary, exists (select 1 from research_run_files f where f.run_id = r.id) as kept,
  exists (select 1 from research_run_erasures e where e.run_id = r.id) as removed`;

/** Runs a page (`limit`; more is clamped to it). */
export const RUNS_LIMIT = 100;
/** Where a page of runs starts: the last run's (requested_at, id). */
export const RunCursor = z.tuple([cursorPart.instant, Uuid]);
export type RunCursor = z.infer<typeof RunCursor>;

/** The newest runs first, `limit` after `cursor` (keyset on the `research_runs_newest` index). */
export async function listRuns(
  sql: Sql,
  page: { limit: number; cursor?: RunCursor | undefined },
): Promise<{ items: ResearchRun[]; next: string | null }> {
  const { limit, cursor } = page;
  const rows = await sql<RunRow[]>`
    select ${RUN_COLUMNS(sql)} from research_runs r
    ${cursor ? sql`where (r.requested_at, r.id) < (${cursor[0]}::text::timestamptz, ${cursor[1]}::uuid)` : sql``}
    order by r.requested_at desc, r.id desc
    limit ${limit + 1}`;
  const { items, next } = toPage(rows, limit, (row) => [row.requested_key, row.id]);
  return { items: items.map(toRun), next };
}

export async function findRun(sql: Sql, runId: string): Promise<ResearchRun | null> {
  const [row] = await sql<RunRow[]>`select ${RUN_COLUMNS(sql)} from research_runs r where r.id = ${runId}`;
  return row ? toRun(row) : null;
}

/** A finished run's zip while it is kept: its file name and bytes. */
export async function runFile(sql: Sql, runId: string | 'latest'): Promise<{ run: DownloadedRun; content: Buffer } | null> {
  const [row] = await sql<{ id: string; file_name: string; finished_at: Date; content: Buffer }[]>`
    select r.id, r.file_name, r.finished_at, f.content from research_runs r join research_run_files f on f.run_id = r.id
    where r.status = 'finished' ${runId === 'latest' ? sql`` : sql`and r.id = ${runId}`}
    order by r.finished_at desc limit 1`;
  return row ? { run: { id: row.id, fileName: row.file_name, finishedAt: row.finished_at.toISOString() }, content: row.content } : null;
}
