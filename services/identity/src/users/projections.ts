import { defineProjection } from '@sleepweave/event-store';
import type { UserDeleted } from '../account-deletion/account-deletion.ts';
import type { UserEvent } from './user.ts';

/** The `users` read model (sign-in, /api/user, roles, study start date, profile). */
export const usersProjection = defineProjection<UserEvent | UserDeleted>({
  name: 'users',
  tables: ['users'],
  handles: ['UserRegistered', 'RoleGranted', 'StudyStartDateRecorded', 'ProfileUpdated', 'PasswordChanged', 'PasswordReset', 'UserDeleted'],
  async apply(tx, event) {
    switch (event.type) {
      case 'UserRegistered': {
        const d = event.data;
        await tx`
          insert into users (id, email, password_hash, first_name, last_name, date_of_birth, timezone, hormonal_stage, role, created_at, updated_at)
          values (${d.userId}, ${d.email}, ${d.passwordHash}, ${d.firstName}, ${d.lastName}, ${d.dateOfBirth}, ${d.timezone}, ${d.hormonalStage}, ${d.role}, ${d.registeredAt}, ${d.registeredAt})`;
        return;
      }
      case 'RoleGranted':
        await tx`update users set role = ${event.data.role}, updated_at = ${event.data.grantedAt} where id = ${event.data.userId}`;
        return;
      case 'StudyStartDateRecorded':
        await tx`update users set study_start_date = ${event.data.studyStartDate}, updated_at = ${event.data.recordedAt} where id = ${event.data.userId}`;
        return;
      case 'ProfileUpdated': {
        const d = event.data;
        await tx`
          update users set first_name = ${d.firstName}, last_name = ${d.lastName}, date_of_birth = ${d.dateOfBirth},
            timezone = ${d.timezone}, hormonal_stage = ${d.hormonalStage}, profile_image_url = ${d.profileImageUrl},
            updated_at = ${d.updatedAt}
          where id = ${d.userId}`;
        return;
      }
      case 'PasswordChanged':
        await tx`update users set password_hash = ${event.data.passwordHash}, updated_at = ${event.data.changedAt} where id = ${event.data.userId}`;
        return;
      case 'PasswordReset':
        await tx`update users set password_hash = ${event.data.passwordHash}, updated_at = ${event.data.resetAt} where id = ${event.data.userId}`;
        return;
      case 'UserDeleted':
        await tx`delete from users where id = ${event.data.userId}`;
        return;
    }
  },
});
