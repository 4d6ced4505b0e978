import { PHASE_COLOURS, type StudyPhase } from '@sleepweave/contracts';
import { PHASE_NAMES } from './sleep-log-groups';

/**
 * Which shade is which phase: one legend above a page of charts. Each key is a band, as the
 * shade is on the charts (a small square looked like a checkbox not ticked, on a phone).
 */
export function PhaseLegend({ phases }: { phases: StudyPhase[] }) {
  if (phases.length === 0) return null;
  return (
    <ul aria-label="Phases shaded on the charts" className="flex flex-wrap items-center gap-x-5 gap-y-2 text-base text-night-800">
      {phases.map((phase) => (
        <li key={phase} className="flex items-center gap-2">
          <span
            aria-hidden="true"
            // its colour kept in a high-contrast theme, as the charts' shades are (it was an empty box)
            className="h-3 w-6 rounded-sm border border-night-300 forced-color-adjust-none"
            style={{ backgroundColor: PHASE_COLOURS[phase].shade }}
          />
          {PHASE_NAMES[phase]}
        </li>
      ))}
    </ul>
  );
}
