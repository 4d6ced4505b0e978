import type { ResearchEffect, ResearchRunStatus, ResearchRunTrigger } from '@sleepweave/contracts';

export const TRIGGER_LABELS: Record<ResearchRunTrigger, string> = {
  schedule: 'Nightly',
  admin: 'By an admin',
};

export const STATUS_LABELS: Record<ResearchRunStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  finished: 'Finished',
  failed: 'Failed',
};

/** "850 ms", "12.4 s", "3 min 5 s", "1 h 2 min"; '--' when unknown. */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '--';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** "840 KB", "12.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An effect size with two decimals ("-0.42", "0.10"). */
export function formatEffect(value: number): string {
  return twoDecimals.format(value);
}

/** "[-0.80, -0.04]"; '--' when an end is unknown. */
export function formatInterval(effect: ResearchEffect): string {
  if (effect.dzLow === null || effect.dzHigh === null) return '--';
  return `[${formatEffect(effect.dzLow)}, ${formatEffect(effect.dzHigh)}]`;
}

/** Holm-adjusted p: "< 0.001", "0.032"; '--' when not computed. */
export function formatP(p: number | null): string {
  if (p === null) return '--';
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A metric the forest plot can show: its d_z is known. */
export type ComputableEffect = ResearchEffect & { dz: number };

export function isComputable(effect: ResearchEffect): effect is ComputableEffect {
  return effect.dz !== null && Number.isFinite(effect.dz);
}
