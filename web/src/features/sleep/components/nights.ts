import { addDays } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';

/**
 * A night named so that nobody wonders which one it is: the night of D is the evening of
 * D and the morning of D + 1 ('Sun 22 → Mon 23 Nov'; across a month 'Mon 30 Nov → Tue 1
 * Dec'). Pure: the date is a calendar date (YYYY-MM-DD), no clock involved.
 */
export function nightSpan(date: string): string {
  const evening = parseISO(date);
  const morning = parseISO(addDays(date, 1));
  const sameMonth = format(evening, 'yyyy-MM') === format(morning, 'yyyy-MM');
  return `${format(evening, sameMonth ? 'EEE d' : 'EEE d MMM')} → ${format(morning, 'EEE d MMM')}`;
}

/** 'Night of Sun 22 → Mon 23 Nov'. */
export const nightName = (date: string): string => `Night of ${nightSpan(date)}`;

/**
 * How she would say it: 'last night' for the night that ended most recently, 'tonight' for
 * the one she is in or sleeps next; null for any other night. Both come from her timezone
 * (lastEndedNight in libs/contracts).
 */
export function nightRelation(date: string, lastEnded: string): 'last night' | 'tonight' | null {
  if (date === lastEnded) return 'last night';
  if (date === addDays(lastEnded, 1)) return 'tonight';
  return null;
}
