/**
 * npm run admin:grant -- <email>
 * Makes a registered user an admin. The running identity service publishes the event;
 * the gateway follows role changes, so the role takes effect within a second (README, "Make an admin").
 */
import { configOrExit, connectDatabase, createLogger, databaseName } from '@sleepweave/service-kit';
import { readIdentityConfig } from '../config.ts';
import { createIdentityContext } from '../context.ts';
import { loadSigningKeys } from '../sessions/tokens.ts';
import { grantAdmin } from '../users/commands.ts';

const email = process.argv[2];
if (!email) {
  console.error('Usage: npm run admin:grant -- <email>');
  process.exit(2);
}
const config = configOrExit(readIdentityConfig);
const logger = createLogger('identity-cli', 'warn');
const sql = connectDatabase(config.DATABASE_URL, databaseName(config, 'identity'), { max: 2 });
try {
  const ctx = createIdentityContext({ config, sql, logger }, await loadSigningKeys(sql));
  const result = await grantAdmin(ctx, email);
  const text = {
    granted: `${email} is now an admin.`,
    already_admin: `${email} is already an admin.`,
    no_such_user: `No account with the e-mail ${email}. Register first, then grant.`,
  }[result];
  console.log(text);
  process.exitCode = result === 'no_such_user' ? 1 : 0;
} catch (err) {
  console.error(`Could not grant admin: ${(err as Error).message}`);
  console.error('Has the identity service started at least once against this database?');
  process.exitCode = 1;
} finally {
  await sql.end();
}
