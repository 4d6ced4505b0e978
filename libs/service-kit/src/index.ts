export * from './auth.ts';
export * from './config.ts';
export * from './database.ts';
export * from './errors.ts';
export * from './http.ts';
export * from './logger.ts';
export * from './runtime.ts';
export * from './cli.ts';
