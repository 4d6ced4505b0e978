import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);
export const verifyPassword = (passwordHash: string, password: string): Promise<boolean> => verify(passwordHash, password);

/** A hash of nothing anyone knows: an unknown e-mail is checked against it, so it costs what a wrong password costs. */
export const decoyPasswordHash = (): Promise<string> => hashPassword(randomBytes(16).toString('hex'));
