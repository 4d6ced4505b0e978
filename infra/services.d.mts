/** Types of services.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader for it). */
import type { SupervisedCommand } from './supervisor.mjs';

export const SERVICE_PORT_OFFSETS: Record<string, number>;
/** Node's settings for every compiled app (npm start, benches, the container images). */
export const APP_NODE_ARGS: string[];
export function presentServices(): { name: string; offset: number }[];
export function urlVariable(name: string): string;
/** SERVICE_PORT_BASE (4000 when not set or empty); null when it is no port base. */
export function servicePortBase(env: NodeJS.ProcessEnv): number | null;
export function systemCommands(options: {
  base: number;
  gatewayPort?: number;
  env?: Record<string, string>;
  suffix?: string;
  /** Run <app>/dist/server.js (infra/build-apps.mjs) instead of the TypeScript through tsx. */
  compiled?: boolean;
}): Required<SupervisedCommand>[];
