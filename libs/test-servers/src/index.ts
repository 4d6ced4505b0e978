export * from './ports.ts';
export * from './nats.ts';
export * from './postgres.ts';
export * from './processes.ts';
