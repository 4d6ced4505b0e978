/**
 * The part of archiver 8 (ESM, no bundled types; @types/archiver describes the 7.x API)
 * that the research zip uses.
 */
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';

  export interface ArchiverOptions {
    zlib?: { level?: number };
  }

  export interface EntryData {
    name: string;
    date?: Date;
  }

  export class ZipArchive extends Transform {
    constructor(options?: ArchiverOptions);
    append(source: Readable | Buffer | string, data: EntryData): this;
    finalize(): Promise<void>;
    pointer(): number;
  }
}
