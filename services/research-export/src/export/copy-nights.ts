import type { StudyPhase } from '@sleepweave/contracts';
import { csvCell } from './csv.ts';
import { NIGHT_FIELDS, type CheckedNight, type NightRow, type NightValue } from './qa.ts';

/**
 * The nights of a run, from the bytes of PostgreSQL's COPY text format to the bytes of
 * nights.csv. Every night of the cohort passes through here once, so this works on the bytes
 * themselves: a field is found, read and copied where it stands, without a string for each
 * (strings and the collections they fill were most of a run's time and of its garbage).
 *
 * - A number's cell is PostgreSQL's own text of the stored double, copied as it came (the
 *   service's connections set extra_float_digits 3: the shortest text that reads back as the
 *   same value), so no number is turned back into text; one that is not finite (study never
 *   sends one) is an empty cell, as csvCell writes it.
 * - A number's value is read by {@link readNumber}.
 * - Text (research id, date, phase, materials, choices) becomes a string once per distinct
 *   value ({@link Interner}); a cell that needs CSV quoting or held a COPY escape goes through
 *   csvCell, as every other file's cells do.
 */

/** The columns of a night in the order COPY sends them: those nights.csv writes as they come, then the rest. */
export const NIGHT_COPY_COLUMNS = [
  'p.research_id',
  'n.date',
  'n.study_day',
  'n.phase',
  'n.recommended_material',
  ...NIGHT_FIELDS.map((field) => `n.${field.column}`),
  'n.revisions',
  // whole milliseconds since 1970 (UTC), as the Date the service wrote
  'floor(extract(epoch from n.recorded_at) * 1000)::bigint',
  // when its values were last entered: its last revision, else its recording
  'floor(extract(epoch from coalesce(n.revised_at, n.recorded_at)) * 1000)::bigint',
  // the zone she logged it in (null for nights logged before it was kept)
  'n.timezone',
];

const RESEARCH_ID = 0;
const DATE = 1;
const STUDY_DAY = 2;
const PHASE = 3;
const MATERIAL = 4;
const FIRST_FIELD = 5;
const REVISIONS = FIRST_FIELD + NIGHT_FIELDS.length;
const RECORDED_AT = REVISIONS + 1;
const CHANGED_AT = RECORDED_AT + 1;
const TIMEZONE = CHANGED_AT + 1;
const COLUMNS = TIMEZONE + 1;

const TAB = 0x09;
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LETTER_Z = 0x5a;
const DAY_MS = 86_400_000;

const NUMBER = 0;
const BOOLEAN = 1;
const CHOICE = 2;
const FIELD_KINDS: readonly number[] = NIGHT_FIELDS.map((field) =>
  field.kind === 'boolean' ? BOOLEAN : field.kind === 'choice' ? CHOICE : NUMBER,
);

/** 10^0 … 10^22: every one an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The number in bytes [start, end) of PostgreSQL's text of a number, exactly as `Number()`
 * reads that text. Plain decimals of at most 15 digits (every value a sleep ring or a rating
 * gives) take the exact fast path of every correct decimal reader (Clinger 1990): the digits
 * are an integer below 2^53 and the power of ten at most 10^15, both exact doubles, and one
 * IEEE division rounds their quotient correctly. Anything else (an exponent, NaN, Infinity,
 * more digits) is read by `Number()` itself.
 */
export function readNumber(bytes: Buffer, start: number, end: number): number {
  let i = start;
  const negative = bytes[i] === MINUS;
  if (negative) i++;
  let digits = 0;
  let mantissa = 0;
  let decimals = -1;
  for (; i < end; i++) {
    const c = bytes[i]!;
    if (c >= DIGIT_0 && c <= DIGIT_9) {
      mantissa = mantissa * 10 + (c - DIGIT_0);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (c === DOT && decimals < 0) decimals = 0;
    else return start === end ? Number.NaN : Number(bytes.toString('latin1', start, end));
  }
  if (digits === 0 || digits > 15) return start === end ? Number.NaN : Number(bytes.toString('latin1', start, end));
  const value = decimals > 0 ? mantissa / POWERS_OF_TEN[decimals]! : mantissa;
  return negative ? -value : value;
}

/** COPY's text of a field: backslash escapes a tab, a line break, a backslash... (never `\N`, null, here). */
function copyText(text: string): string {
  return text.replace(/\\(.)/g, (_, c: string) => ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' })[c] ?? c);
}

interface Interned {
  bytes: Buffer;
  value: string;
  /** Its CSV cell's bytes. */
  cell: Buffer;
}

/**
 * The string of a text field's bytes, made once per distinct value: a run sees 900 research
 * ids, a few hundred dates, and a handful of phases, materials and choices, each thousands
 * of times.
 */
class Interner {
  private readonly table = new Map<number, Interned[]>();
  /** The last value of each column: most rows repeat it (her research id, the phase, a material). */
  private readonly last: (Interned | undefined)[] = [];

  get(column: number, bytes: Buffer, start: number, end: number): Interned {
    const last = this.last[column];
    if (last !== undefined && sameBytes(last.bytes, bytes, start, end)) return last;
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
    let bucket = this.table.get(hash);
    if (bucket === undefined) {
      bucket = [];
      this.table.set(hash, bucket);
    }
    let found: Interned | undefined;
    for (const entry of bucket) if (sameBytes(entry.bytes, bytes, start, end)) found = entry;
    if (found === undefined) {
      const own = Buffer.from(bytes.subarray(start, end));
      const text = own.toString('utf8');
      const value = own.includes(BACKSLASH) ? copyText(text) : text;
      found = { bytes: own, value, cell: Buffer.from(csvCell(value)) };
      bucket.push(found);
    }
    this.last[column] = found;
    return found;
  }
}

/** COPY's `\N`, a null. */
function isNull(bytes: Buffer, start: number, end: number): boolean {
  return end - start === 2 && bytes[start] === BACKSLASH && bytes[start + 1] === 0x4e; /* N */
}

function sameBytes(a: Buffer, b: Buffer, start: number, end: number): boolean {
  if (a.length !== end - start) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[start + i]) return false;
  return true;
}

/** Bytes of a text file gathered into chunks of about a megabyte, each handed on whole. */
/**
 * A megabyte: each chunk reaches zlib whole (the archive's deflate takes a megabyte a call),
 * so the archive deflates nights.csv in a few calls on the thread pool while this thread goes
 * on, not in a hundred that each wait for a turn of this thread's event loop.
 */
const CHUNK_BYTES = 1024 * 1024;

export class ByteChunks {
  private chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private length = 0;
  /** YYYY-MM-DDT of each day seen, by days since 1970. */
  private readonly days = new Map<number, Buffer>();

  constructor(private readonly emit: (chunk: Buffer) => void) {}

  /** Makes room for `n` more bytes. */
  reserve(n: number): void {
    if (this.length + n <= this.chunk.length) return;
    this.flush();
    if (n > this.chunk.length) this.chunk = Buffer.allocUnsafe(n);
  }

  /** One byte (room reserved). */
  byte(b: number): void {
    this.chunk[this.length++] = b;
  }

  /** Bytes [start, end) of `from` (room reserved). */
  copy(from: Buffer, start: number, end: number): void {
    const chunk = this.chunk;
    let at = this.length;
    for (let i = start; i < end; i++) chunk[at++] = from[i]!;
    this.length = at;
  }

  /**
   * A time as `Date.prototype.toISOString` writes it (YYYY-MM-DDTHH:mm:ss.sssZ, 24 bytes; room
   * reserved): the date from a cache of one text per day, the time of day by arithmetic.
   * (toISOString and the copy of its string into the chunk were a third of a night's time.)
   */
  isoTime(ms: number): void {
    const day = Math.floor(ms / DAY_MS);
    let date = this.days.get(day);
    if (date === undefined) {
      const midnight = new Date(day * DAY_MS).toISOString();
      // YYYY-MM-DDT; none for a year outside 0000-9999 (written ±YYYYYY-MM-DD…)
      date = Buffer.from(midnight.length === 24 ? midnight.slice(0, 11) : '', 'latin1');
      this.days.set(day, date);
    }
    if (date.length !== 11) {
      this.text(new Date(ms).toISOString());
      return;
    }
    this.copy(date, 0, 11);
    let rest = ms - day * DAY_MS;
    const millis = rest % 1000;
    rest = (rest - millis) / 1000;
    const seconds = rest % 60;
    rest = (rest - seconds) / 60;
    const minutes = rest % 60;
    const hours = (rest - minutes) / 60;
    this.twoDigits(hours);
    this.byte(COLON);
    this.twoDigits(minutes);
    this.byte(COLON);
    this.twoDigits(seconds);
    this.byte(DOT);
    this.byte(DIGIT_0 + Math.floor(millis / 100));
    this.twoDigits(millis % 100);
    this.byte(LETTER_Z);
  }

  private twoDigits(n: number): void {
    this.chunk[this.length++] = DIGIT_0 + Math.floor(n / 10);
    this.chunk[this.length++] = DIGIT_0 + (n % 10);
  }

  /** A string as UTF-8 (room reserved: 3 bytes a UTF-16 unit at most). */
  text(text: string): void {
    this.length += this.chunk.write(text, this.length, 'utf8');
  }

  /** Hands on what is gathered. */
  flush(): void {
    if (this.length === 0) return;
    this.emit(this.chunk.subarray(0, this.length));
    this.chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.length = 0;
  }
}

const YES = Buffer.from('yes');
const NO = Buffer.from('no');
const MATCH_YES = Buffer.from(',yes,');
const MATCH_NO = Buffer.from(',no,');
const MATCH_UNKNOWN = Buffer.from(',,');
const ANALYSED_YES = Buffer.from(',yes,');
const ANALYSED_NO = Buffer.from(',no,');

/**
 * Reads the nights of a COPY (columns {@link NIGHT_COPY_COLUMNS}, text format), a chunk of
 * bytes at a time. For each night: `visit` says what the QA rules made of it, and its line
 * of nights.csv goes to `out` (none when `out` is null: the nights are only read).
 *
 * The night `visit` is given (the object, its values and its date) is the reader's own and
 * is filled anew for the next row: a visitor keeps what it needs of it (a copy of the
 * values, the strings), never the night itself. One object for every night, not three.
 */
export class CopyNights {
  private readonly interner = new Interner();
  private readonly starts = new Int32Array(COLUMNS);
  private readonly ends = new Int32Array(COLUMNS);
  /** The CSV cells of the row's choices, by field. */
  private readonly choiceCells: (Buffer | undefined)[] = [];
  private rest: Buffer | null = null;
  private readonly current: NightRow = {
    researchId: '',
    date: '',
    studyDay: 0,
    phase: 'polyester',
    recommendedMaterial: '',
    recordedAt: new Date(0),
    changedAt: new Date(0),
    revisions: 0,
    timezone: null,
    values: new Array<NightValue>(FIELD_KINDS.length).fill(null),
  };

  constructor(
    private readonly out: ByteChunks | null,
    private readonly visit: (night: NightRow) => CheckedNight,
  ) {}

  /** Every whole row of `chunk` (with what the last chunk left of a row before it). */
  push(chunk: Buffer): void {
    const bytes = this.rest === null ? chunk : Buffer.concat([this.rest, chunk]);
    this.rest = null;
    let start = 0;
    for (;;) {
      const end = this.fields(bytes, start);
      if (end < 0) break;
      this.night(bytes, end - start);
      start = end + 1;
    }
    if (start < bytes.length) this.rest = Buffer.from(bytes.subarray(start));
  }

  /** The end of the input: a row left without its line break is a truncated COPY. */
  end(): void {
    if (this.rest !== null) throw new Error(`COPY of the nights ended inside a row (${this.rest.length} bytes)`);
  }

  /** Finds the fields of the row at `start`; the index of its line break, or -1 when the row is not whole yet. */
  private fields(bytes: Buffer, start: number): number {
    const { starts, ends } = this;
    let column = 0;
    starts[0] = start;
    for (let i = start; i < bytes.length; i++) {
      const c = bytes[i];
      if (c === TAB || c === NEWLINE) {
        if (column >= COLUMNS) throw new Error('COPY of the nights: a row with more columns than asked for');
        ends[column] = i;
        column++;
        if (c === NEWLINE) {
          if (column !== COLUMNS) throw new Error(`COPY of the nights: a row of ${column} columns, not ${COLUMNS}`);
          return i;
        }
        starts[column] = i + 1;
      }
    }
    return -1;
  }

  private night(bytes: Buffer, rowLength: number): void {
    const { starts, ends, interner, out, choiceCells } = this;
    const researchId = interner.get(RESEARCH_ID, bytes, starts[RESEARCH_ID]!, ends[RESEARCH_ID]!);
    const date = interner.get(DATE, bytes, starts[DATE]!, ends[DATE]!);
    const phase = interner.get(PHASE, bytes, starts[PHASE]!, ends[PHASE]!);
    const material = interner.get(MATERIAL, bytes, starts[MATERIAL]!, ends[MATERIAL]!);
    const night = this.current;
    const values = night.values;
    for (let i = 0; i < FIELD_KINDS.length; i++) {
      const start = starts[FIRST_FIELD + i]!;
      const end = ends[FIRST_FIELD + i]!;
      let value: NightValue;
      if (isNull(bytes, start, end)) value = null;
      else if (FIELD_KINDS[i] === NUMBER) value = readNumber(bytes, start, end);
      else if (FIELD_KINDS[i] === BOOLEAN) value = bytes[start] === 0x74; /* t */
      else {
        const choice = interner.get(FIRST_FIELD + i, bytes, start, end);
        value = choice.value;
        choiceCells[i] = choice.cell;
      }
      values[i] = value;
    }
    night.researchId = researchId.value;
    night.date = date.value;
    night.studyDay = readNumber(bytes, starts[STUDY_DAY]!, ends[STUDY_DAY]!);
    night.phase = phase.value as StudyPhase;
    night.recommendedMaterial = material.value;
    night.recordedAt.setTime(readNumber(bytes, starts[RECORDED_AT]!, ends[RECORDED_AT]!));
    night.changedAt.setTime(readNumber(bytes, starts[CHANGED_AT]!, ends[CHANGED_AT]!));
    night.revisions = readNumber(bytes, starts[REVISIONS]!, ends[REVISIONS]!);
    night.timezone = isNull(bytes, starts[TIMEZONE]!, ends[TIMEZONE]!)
      ? null
      : interner.get(TIMEZONE, bytes, starts[TIMEZONE]!, ends[TIMEZONE]!).value;

    if (out !== null) {
      // quoting can double a cell's bytes; yes/no and the commas add a few
      out.reserve(2 * rowLength + 3 * COLUMNS);
      out.copy(researchId.cell, 0, researchId.cell.length);
      out.byte(COMMA);
      out.copy(date.cell, 0, date.cell.length);
      out.byte(COMMA);
      out.copy(bytes, starts[STUDY_DAY]!, ends[STUDY_DAY]!);
      out.byte(COMMA);
      out.copy(phase.cell, 0, phase.cell.length);
      out.byte(COMMA);
      out.copy(material.cell, 0, material.cell.length);
      for (let i = 0; i < FIELD_KINDS.length; i++) {
        out.byte(COMMA);
        const value = values[i];
        if (value === null) continue;
        if (typeof value === 'number') {
          if (Number.isFinite(value)) out.copy(bytes, starts[FIRST_FIELD + i]!, ends[FIRST_FIELD + i]!);
        } else if (typeof value === 'boolean') {
          const cell = value ? YES : NO;
          out.copy(cell, 0, cell.length);
        } else {
          const cell = choiceCells[i]!;
          out.copy(cell, 0, cell.length);
        }
      }
    }

    const checked = this.visit(night);

    if (out !== null) {
      // material_matches, revisions, recorded_at, analysed, qa_flags
      const worn = values[WORN];
      const flags = checked.flags.length === 0 ? '' : checked.flags.join(';');
      out.reserve(64 + flags.length);
      const matches = typeof worn === 'string' ? (worn === night.recommendedMaterial ? MATCH_YES : MATCH_NO) : MATCH_UNKNOWN;
      out.copy(matches, 0, matches.length);
      out.copy(bytes, starts[REVISIONS]!, ends[REVISIONS]!);
      out.byte(COMMA);
      out.isoTime(night.recordedAt.getTime());
      const analysed = checked.analysed ? ANALYSED_YES : ANALYSED_NO;
      out.copy(analysed, 0, analysed.length);
      if (flags !== '') out.text(flags);
      out.byte(NEWLINE);
    }
  }
}

const WORN = NIGHT_FIELDS.findIndex((field) => field.key === 'sleepwearMaterial');
