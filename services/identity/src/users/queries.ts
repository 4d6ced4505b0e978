import type { AuthUser, User } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import type { Sql } from '@sleepweave/service-kit';

interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  profile_image_url: string | null;
  date_of_birth: string | null;
  timezone: User['timezone'];
  hormonal_stage: User['hormonalStage'];
  role: User['role'];
  study_start_date: string | null;
  created_at: Date;
  updated_at: Date;
}

const columns = (sql: Sql) => sql`
  id, email, password_hash, first_name, last_name, profile_image_url,
  date_of_birth::text as date_of_birth, timezone, hormonal_stage, role,
  study_start_date::text as study_start_date, created_at, updated_at`;

export async function findUserById(sql: Sql, id: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select ${columns(sql)} from users where id = ${id}`;
  return row;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [row] = await sql<UserRow[]>`select ${columns(sql)} from users where email = ${email}`;
  return row;
}

/** Ids and e-mails of the accounts whose address is at `domain` (the demo's accounts: `npm run demo`). */
export async function listUsersOfEmailDomain(sql: Sql, domain: string): Promise<{ id: string; email: string }[]> {
  const pattern = `%@${domain.replaceAll('\\', '\\\\').replaceAll('%', '\\%').replaceAll('_', '\\_')}`;
  return sql<{ id: string; email: string }[]>`select id, email from users where email like ${pattern} order by email`;
}

/** The public shape: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
    dateOfBirth: row.date_of_birth,
    timezone: row.timezone,
    hormonalStage: row.hormonal_stage,
    role: row.role,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toAuthUser(row: UserRow): AuthUser {
  return { ...toUser(row), studyStartDate: row.study_start_date };
}

/** How many admins there are (`users_admins`, migration 007: never every user). */
export function adminsCountQuery(sql: Sql | Tx) {
  return (sql as Sql)<{ admins: number }[]>`select count(*)::int as admins from users where role = 'admin'`;
}

export async function countAdmins(sql: Sql | Tx): Promise<number> {
  const [row] = await adminsCountQuery(sql);
  return row?.admins ?? 0;
}
