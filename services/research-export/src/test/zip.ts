import { parse } from 'csv-parse/sync';
import yauzl from 'yauzl';

/** Every file of a zip, by name (test use: the zips are small). */
export async function readZip(zip: Buffer): Promise<Map<string, Buffer>> {
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, file) => (err ? reject(err) : resolve(file!))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    archive.on('error', reject);
    archive.on('end', () => resolve());
    archive.on('entry', (entry: yauzl.Entry) => {
      archive.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err ?? new Error(`cannot read ${entry.fileName}`));
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          archive.readEntry();
        });
        stream.on('error', reject);
      });
    });
    archive.readEntry();
  });
  return files;
}

/** A CSV file's rows as objects by header (it must parse strictly). */
export function csvRows(content: Buffer | undefined): Record<string, string>[] {
  if (!content) throw new Error('no such file in the zip');
  // csv-parse refuses a row whose column count differs from the header's (no relax options)
  return parse(content, { columns: true }) as Record<string, string>[];
}
