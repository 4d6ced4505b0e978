import type { z } from 'zod';

/**
 * The shared contracts for the app shell (api-client, auth): every schema, and zod with
 * them, about a fifth of what a first visit would otherwise download before the first
 * paint. The shell loads them with the first answer it checks instead (in parallel with
 * the request). Screens import '@sleepweave/contracts' as usual: they load after the
 * shell, so their schemas come with their own chunk.
 */
export function loadContracts() {
  return import('@sleepweave/contracts');
}

export type Contracts = Awaited<ReturnType<typeof loadContracts>>;

/** A schema of the contracts loaded on first use, for `RequestOptions.schema`: `lazySchema((c) => c.User)`. */
export function lazySchema<T>(pick: (contracts: Contracts) => z.ZodType<T>): () => Promise<z.ZodType<T>> {
  return () => loadContracts().then(pick);
}
