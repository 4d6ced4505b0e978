/**
 * RFC 4180 fields for the research files. csv-stringify costs about 15 µs a row of the
 * nights file (35 columns), three times the whole PostgreSQL COPY of those rows, so the
 * research zip formats its cells here: numbers as JavaScript prints them (the shortest
 * text that reads back as the same double), yes/no, and text quoted when it holds a quote,
 * a comma or a line break. The files are read back with csv-parse in the tests. (nights.csv's
 * numbers are PostgreSQL's own shortest text of each, copied as they come: copy-nights.ts.)
 */

const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null and undefined are empty; booleans are yes/no. */
export function csvCell(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? String(value) : '';
    case 'boolean':
      return value ? 'yes' : 'no';
    case 'string':
      return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
    case 'undefined':
      return '';
    default:
      if (value === null) return '';
      if (value instanceof Date) return value.toISOString();
      return csvCell(String(value));
  }
}

/** One line (CRLF-free: lines end with \n, as csv-parse and R read them). */
export function csvLine(cells: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i === 0 ? '' : ',') + csvCell(cells[i]);
  return `${line}\n`;
}
