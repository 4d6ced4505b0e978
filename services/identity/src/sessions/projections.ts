import { defineProjection } from '@sleepweave/event-store';
import type { UserDeleted } from '../account-deletion/account-deletion.ts';
import type { SessionEvent } from './session.ts';

/** The `sessions` read model: refresh-token lookups and revocation. */
export const sessionsProjection = defineProjection<SessionEvent | UserDeleted>({
  name: 'sessions',
  tables: ['sessions', 'session_retired_tokens'],
  handles: ['SessionStarted', 'SessionRefreshed', 'SessionRevoked', 'UserDeleted'],
  async apply(tx, event) {
    switch (event.type) {
      case 'SessionStarted': {
        const d = event.data;
        await tx`
          insert into sessions (id, user_id, refresh_token_hash, started_at, expires_at)
          values (${d.sessionId}, ${d.userId}, ${d.refreshTokenHash}, ${d.startedAt}, ${d.expiresAt})`;
        return;
      }
      case 'SessionRefreshed': {
        const d = event.data;
        await tx`update sessions set refresh_token_hash = ${d.refreshTokenHash} where id = ${d.sessionId}`;
        // (retired again when it was taken again, its successor's answer lost; that successor
        // given up, and retired with it, so that it is still known if it comes)
        const retired = [d.retiredTokenHash, ...(d.abandonedTokenHash ? [d.abandonedTokenHash] : [])];
        await tx`insert into session_retired_tokens ${tx(retired.map((hash) => ({ refresh_token_hash: hash, session_id: d.sessionId, retired_at: d.refreshedAt })))}
                 on conflict (refresh_token_hash) do update set retired_at = excluded.retired_at`;
        return;
      }
      case 'SessionRevoked':
        await tx`update sessions set revoked_at = ${event.data.revokedAt}, revoke_reason = ${event.data.reason} where id = ${event.data.sessionId}`;
        return;
      case 'UserDeleted': {
        // her sessions' rows before their tokens', in the order the removal of ended
        // sessions locks them (retention.ts): taken the other way round, the two deadlocked
        const hers = await tx<{ id: string }[]>`delete from sessions where user_id = ${event.data.userId} returning id`;
        if (hers.length > 0) await tx`delete from session_retired_tokens where session_id = any(${hers.map((row) => row.id)}::uuid[])`;
        return;
      }
    }
  },
});
