export * from './common.ts';
export * from './profile.ts';
export * from './identity.ts';
export * from './identity-events.ts';
export * from './study-events.ts';
export * from './events.ts';
