import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { stringify, type Stringifier } from 'csv-stringify';
import type { FileSpec } from './columns.ts';

/**
 * A zip written as its files are produced: each CSV is a stream (rows go in as they are
 * read, with back-pressure) and the archive compresses as it goes, so no file is ever held
 * whole as a string. What comes out is collected: the zip itself, compressed.
 */
export class ZipWriter {
  private readonly archive = new ZipArchive({ zlib: { level: 6 } });
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
    const stringifier = stringify({ header: true, columns: spec.columns.map((c) => c.name), cast: { boolean: (v) => (v ? 'yes' : 'no') } });
    this.archive.append(stringifier, { name: spec.file, date: this.date });
    return new CsvFile(stringifier);
  }

  /** Finishes the archive; the zip's bytes. */
  async finish(): Promise<Buffer> {
    await this.archive.finalize();
    await this.done;
    return Buffer.concat(this.chunks);
  }
}

export class CsvFile {
  constructor(private readonly stringifier: Stringifier) {}

  /** Writes one row (values by column name; null and undefined are empty cells), waiting when the archive is behind. */
  async write(row: Record<string, unknown>): Promise<void> {
    if (!this.stringifier.write(row)) await once(this.stringifier, 'drain');
  }

  async end(): Promise<void> {
    this.stringifier.end();
  }
}
