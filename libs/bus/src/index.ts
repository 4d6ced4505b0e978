export * from './types.ts';
export * from './naming.ts';
export * from './nats-bus.ts';
