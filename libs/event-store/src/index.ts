export * from './types.ts';
export * from './errors.ts';
export * from './migrate.ts';
export * from './store.ts';
export * from './relay.ts';
export * from './consumer.ts';
export * from './rebuild.ts';
