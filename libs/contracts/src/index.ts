export * from './common.ts';
export * from './profile.ts';
export * from './identity.ts';
export * from './events.ts';
