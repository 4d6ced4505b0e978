import type { User } from '@sleepweave/contracts';

/** The signed-in participant of component tests. */
export const maria: User = {
  id: '6f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a1',
  email: 'maria@example.com',
  firstName: 'Maria',
  lastName: 'Lopez',
  profileImageUrl: null,
  dateOfBirth: '1970-05-14',
  timezone: 'America/New_York',
  hormonalStage: 'Menopause',
  role: 'participant',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
};
