/**
 * An `Intl.DateTimeFormat` made once for each locale and set of options, not at every call.
 * Making one builds ICU's patterns for the locale and time zone, which every card of a list
 * paid again for its own date: 0.12 ms each in Chromium here, about 0.5 ms at Lighthouse's
 * 4× slowdown (42 sleep-log cards: 95 → 69 ms of the sleep dashboard's first render there;
 * what is left is Intl's first use in the page, 14–40 ms unthrottled, whichever format).
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** "Nov 22, 2026, 3:00 AM GMT+1": an instant on the given clock (her profile's; the browser's when unknown). */
export function formatInstant(iso: string, timeZone?: string): string {
  return dateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(new Date(iso));
}

/** "Nov 22, 2026": the day of an instant on the given clock (the browser's when none). */
export function formatInstantDay(iso: string, timeZone?: string): string {
  return dateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(
    new Date(iso),
  );
}
