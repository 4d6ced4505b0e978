/**
 * Her calendar day (YYYY-MM-DD) at `instant` in an IANA timezone: what "today" means for
 * a journal entry. en-CA formats dates as YYYY-MM-DD.
 */
export function calendarDateIn(timezone: string, instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}
