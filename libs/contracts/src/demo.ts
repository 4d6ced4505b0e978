/**
 * Demo accounts (`npm run demo`, docs/demo.md) are marked by their e-mail domain, so any
 * service that knows a user's e-mail can tell one: a reserved `.test` domain (RFC 2606),
 * which no real person's address can have.
 */
export const DEMO_EMAIL_DOMAIN = 'demo.sleepweave.test';

/** Whether an e-mail address belongs to a demo account (case-insensitive). */
export function isDemoEmail(email: string): boolean {
  return email.trim().toLowerCase().endsWith(`@${DEMO_EMAIL_DOMAIN}`);
}
