#!/usr/bin/env node
/**
 * What the tests need of the machine's servers, asked the way the apps ask (.ci/run runs it
 * after `npm ci`): PostgreSQL on DATABASE_URL taking the `postgres` user without a password
 * (trust), and NATS on NATS_URL with JetStream. A TCP answer alone proves neither: Debian's
 * nats-server package starts a server without JetStream, and a new PostgreSQL cluster asks
 * 127.0.0.1 for a password. Exit codes: 0 both fine, 2 NATS lacks JetStream (or does not
 * answer), 3 PostgreSQL refuses the connection; each says why.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import postgres from 'postgres';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

async function checkNats() {
  let nc;
  try {
    nc = await connect({ servers: natsUrl, timeout: 5_000 });
    await (await jetstreamManager(nc, { timeout: 5_000 })).getAccountInfo();
    return null;
  } catch (err) {
    return `NATS at ${natsUrl} has no JetStream (start nats-server with -js): ${err instanceof Error ? err.message : err}`;
  } finally {
    await nc?.close();
  }
}

async function checkPostgres() {
  const sql = postgres(`${databaseUrl.replace(/\/$/, '')}/postgres`, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await sql`select 1`;
    return null;
  } catch (err) {
    return `PostgreSQL at ${databaseUrl} refuses the connection (the tests connect as postgres without a password: trust for 127.0.0.1): ${err instanceof Error ? err.message : err}`;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

const nats = await checkNats();
if (nats) {
  console.error(nats);
  process.exit(2);
}
const pg = await checkPostgres();
if (pg) {
  console.error(pg);
  process.exit(3);
}
console.log(`PostgreSQL (${databaseUrl}) and NATS with JetStream (${natsUrl}) answer as the tests need`);
