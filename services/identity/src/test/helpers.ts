import { randomInt, randomUUID } from 'node:crypto';
import { ACCESS_COOKIE, REFRESH_COOKIE, type RegisterRequest } from '@sleepweave/contracts';
import { startTestService, testEnv, type TestServiceOptions } from '@sleepweave/service-kit/testing';
import { readIdentityConfig } from '../config.ts';
import { identityService } from '../service.ts';

export async function startIdentity(env: NodeJS.ProcessEnv = {}, options: TestServiceOptions = {}) {
  return startTestService(identityService, readIdentityConfig(testEnv(env)), options);
}
export type Identity = Awaited<ReturnType<typeof startIdentity>>;

export function newRegistration(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  const password = 'correct horse battery';
  return {
    email: `Person.${randomUUID()}@Example.com`,
    password,
    confirmPassword: password,
    firstName: 'Maya',
    lastName: 'Lindqvist',
    dateOfBirth: '1972-04-18',
    timezone: 'Europe/London',
    hormonalStage: 'Perimenopause',
    ...overrides,
  };
}

type Injected = { cookies: { name: string; value: string }[] };

export function sessionCookies(response: Injected): { access: string; refresh: string } {
  const find = (name: string) => response.cookies.find((c) => c.name === name)?.value ?? '';
  return { access: find(ACCESS_COOKIE), refresh: find(REFRESH_COOKIE) };
}

/** A client address of its own, so per-IP limits (registration: 10 per 10 minutes) never trip a test. */
export const randomIp = () => `10.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;

/** Registers a new user (from an address of her own) and returns her tokens. */
export async function register(identity: Identity, overrides: Partial<RegisterRequest> = {}) {
  const body = newRegistration(overrides);
  const response = await identity.app.inject({ method: 'POST', url: '/api/register', payload: body, remoteAddress: randomIp() });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { body, user: response.json().user as { id: string; email: string }, ...sessionCookies(response) };
}
