import { stringify, type Stringifier } from 'csv-stringify';

export interface CsvColumn {
  key: string;
  header: string;
}

/**
 * The admin exports' CSV, written by csv-stringify (docs/admin.md):
 * - RFC 4180: comma-separated, CRLF between records, a field quoted when it holds a comma,
 *   a quote (doubled inside) or a line break (`quote_record_delimiter`: a lone LF or CR is
 *   quoted too, which csv-stringify stops doing by default once the delimiter is CRLF);
 * - UTF-8 with a byte order mark, so Excel reads accents and non-Latin names right;
 * - formula injection neutralised (`escape_formulas`, OWASP "CSV Injection"): a text cell
 *   that starts with `=`, `+`, `-`, `@`, a tab or a carriage return (or their full-width
 *   forms) gets a single quote in front, so a spreadsheet shows it as text and never runs
 *   it. Numbers are written as numbers (a negative number is data, not a formula). So does
 *   one after a semicolon: Excel in most European locales opens a CSV split on `;`, where
 *   `x;=2*3` in a name became a cell `=2*3` and ran (quotes do not help: the field it starts in
 *   there is not the quoted one).
 * Booleans are yes/no, times ISO 8601 in UTC, empty cells empty.
 */
/** A semicolon and the spaces after it, before a character a spreadsheet starts a formula with (escape_formulas' own). */
const AFTER_SEMICOLON = /;\s*(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g;

export function csvStringifier(columns: readonly CsvColumn[]): Stringifier {
  return stringify({
    header: true,
    columns: columns.map(({ key, header }) => ({ key, header })),
    bom: true,
    record_delimiter: 'windows',
    quote_record_delimiter: true,
    escape_formulas: true,
    cast: {
      string: (value) => value.replace(AFTER_SEMICOLON, "$&'"),
      boolean: (value) => (value ? 'yes' : 'no'),
      date: (value) => value.toISOString(),
    },
  });
}
