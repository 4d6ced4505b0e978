import type { StudyPhase } from '@sleepweave/contracts';
import { PHASE_NAMES } from './sleep-log-groups';

/** The shading of each phase behind the charts' lines (light: the line and its dots stay clear). */
export const PHASE_SHADES: Record<StudyPhase, { fill: string; swatch: string }> = {
  polyester: { fill: '#eeebfb', swatch: 'bg-[#eeebfb]' },
  washout: { fill: '#f7efdf', swatch: 'bg-[#f7efdf]' },
  linen: { fill: '#e4f3ea', swatch: 'bg-[#e4f3ea]' },
  completed: { fill: '#f1f1f4', swatch: 'bg-[#f1f1f4]' },
};

/** Which shade is which phase: one legend above a page of charts. */
export function PhaseLegend({ phases }: { phases: StudyPhase[] }) {
  if (phases.length === 0) return null;
  return (
    <ul aria-label="Phases shaded on the charts" className="flex flex-wrap items-center gap-x-5 gap-y-2 text-base text-night-800">
      {phases.map((phase) => (
        <li key={phase} className="flex items-center gap-2">
          <span aria-hidden="true" className={`size-4 rounded border border-night-300 ${PHASE_SHADES[phase].swatch}`} />
          {PHASE_NAMES[phase]}
        </li>
      ))}
    </ul>
  );
}
