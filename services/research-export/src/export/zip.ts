import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import type { FileSpec } from './columns.ts';
import { csvLine } from './csv.ts';

/**
 * Lets the event loop turn once. The archive deflates on the thread pool a piece at a time,
 * and each piece's end is handled on this thread's event loop, which starts the next: a run
 * computing for tens of milliseconds without a turn (the phase means, the comparisons) would
 * leave the deflate waiting, to be done after, instead of beside it.
 */
export function yieldToDeflate(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Text gathered before it goes to the archive: one stream write per 64 KiB, not per row. */
const CHUNK_CHARS = 64 * 1024;

/**
 * A zip written as its files are produced: each CSV is a stream (rows go in as they are
 * read, with back-pressure) and the archive compresses as it goes, so no file is ever held
 * whole as a string. What comes out is collected: the zip itself, compressed.
 */
export class ZipWriter {
  // Level 1: a research run's nights.csv (4.5 MB for 1,000 participants) deflates in a third
  // of level 6's time, into a zip a fifth larger (1.3 MB instead of 1.1 MB). A megabyte a
  // call to zlib (16 KiB by default): each call is a task on the thread pool whose end waits
  // for a turn of the event loop, which a run keeps busy.
  private readonly archive = new ZipArchive({ zlib: { level: 1, chunkSize: 1024 * 1024 } as { level: number } });
  private readonly chunks: Buffer[] = [];
  private readonly done: Promise<void>;
  private readonly date: Date;

  constructor(date: Date) {
    this.date = date;
    this.archive.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.archive.once('end', () => resolve());
      this.archive.once('error', reject);
      this.archive.once('warning', reject);
    });
  }

  /** A text file (Markdown, R, the PDF's bytes). */
  add(name: string, content: string | Buffer | Readable): void {
    this.archive.append(content, { name, date: this.date });
  }

  /** A CSV file with the spec's header; write rows (in the spec's column order), then `end()`. */
  csv(spec: FileSpec): CsvFile {
    // room for two of nights.csv's chunks (copy-nights.ts)
    const stream = new PassThrough({ highWaterMark: 2 * 1024 * 1024 });
    this.archive.append(stream, { name: spec.file, date: this.date });
    return new CsvFile(
      stream,
      spec.columns.map((c) => c.name),
    );
  }

  /** Finishes the archive; the zip's bytes. */
  async finish(): Promise<Buffer> {
    await this.archive.finalize();
    await this.done;
    return Buffer.concat(this.chunks);
  }
}

export class CsvFile {
  private pending: string;

  constructor(
    private readonly stream: PassThrough,
    private readonly columns: readonly string[],
  ) {
    this.pending = csvLine(columns);
  }

  /** Writes one row (values by column name; null and undefined are empty cells), waiting when the archive is behind. */
  async write(row: Record<string, unknown>): Promise<void> {
    await this.writeCells([this.cellsOf(row)]);
  }

  /** Writes rows as {@link write} does, waiting for the archive once per thousand rows instead of after each. */
  async writeAll(rows: Iterable<Record<string, unknown>>): Promise<void> {
    const cells = function* (file: CsvFile) {
      for (const row of rows) yield file.cellsOf(row);
    };
    await this.writeCells(cells(this));
  }

  /**
   * Writes rows given as their cells in the file's column order (a row the wrong length
   * throws), as {@link writeAll} does, without an object a row (the files of thousands of rows).
   */
  async writeCells(rows: Iterable<readonly unknown[]>): Promise<void> {
    let count = 0;
    for (const cells of rows) {
      if (cells.length !== this.columns.length) throw new RangeError(`a row of ${cells.length} cells for ${this.columns.length} columns`);
      this.append(csvLine(cells));
      if (++count % 1000 === 0) await this.drained();
    }
    await this.drained();
  }

  private cellsOf(row: Record<string, unknown>): unknown[] {
    return this.columns.map((column) => row[column]);
  }

  /**
   * Adds one line made by the caller from the file's columns (cells by `csvCell`, ending in
   * \n) without waiting: a caller adding many calls {@link drained} between batches.
   */
  append(line: string): void {
    this.pending += line;
    if (this.pending.length >= CHUNK_CHARS) this.push();
  }

  /** Adds bytes of whole lines (UTF-8) made by the caller, without waiting (see {@link append}). */
  appendBytes(bytes: Buffer): void {
    this.push();
    this.stream.write(bytes);
  }

  /** Resolves once the archive has room again (back-pressure). */
  async drained(): Promise<void> {
    if (this.stream.writableNeedDrain) await once(this.stream, 'drain');
  }

  /** Ends the file, and lets the event loop turn (see {@link yieldToDeflate}). */
  async end(): Promise<void> {
    this.push();
    this.stream.end();
    await yieldToDeflate();
  }

  private push(): void {
    if (this.pending === '') return;
    this.stream.write(this.pending);
    this.pending = '';
  }
}
