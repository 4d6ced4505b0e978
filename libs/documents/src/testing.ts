import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

/**
 * For tests: what a PDF says and how it looks, through poppler-utils (`pdftotext`,
 * `pdftoppm`, `pdfinfo`; installed on CI by .ci/run), a reader other than the one that wrote it.
 */
const run = promisify(execFile);

export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

async function scratch(pdf: Buffer): Promise<string> {
  const dir = join(tmpdir(), `sleepweave-pdf-${process.pid}-${Math.random().toString(36).slice(2)}`);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'document.pdf'), pdf);
  return dir;
}

/** The text of every page (pdftotext -layout), pages separated by form feeds. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await scratch(pdf);
  const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', join(dir, 'document.pdf'), '-'], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** The first page's words with their boxes, as drawn (pdftotext -bbox: a Hebrew word's letters backwards), in the order pdftotext gives. */
export async function pdfWords(pdf: Buffer): Promise<{ word: string; xMin: number; xMax: number; yMin: number; yMax: number }[]> {
  const dir = await scratch(pdf);
  const { stdout } = await run('pdftotext', ['-bbox', '-f', '1', '-l', '1', '-enc', 'UTF-8', join(dir, 'document.pdf'), '-']);
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    word: m[5]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}

/**
 * The first page's lines as a reader sees them: each line's words from left to right, each
 * word's letters as drawn from left to right (a Hebrew word's backwards), where the line
 * starts and ends, and its top and bottom (pdftotext -bbox, which reads no direction into them).
 */
export async function pdfSeenLines(pdf: Buffer): Promise<{ words: string[]; xMin: number; xMax: number; yMin: number; yMax: number }[]> {
  const lines = new Map<number, Awaited<ReturnType<typeof pdfWords>>>();
  for (const word of await pdfWords(pdf)) {
    const line = lines.get(Math.round(word.yMin)) ?? [];
    line.push(word);
    lines.set(Math.round(word.yMin), line);
  }
  return [...lines.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, words]) => words.sort((a, b) => a.xMin - b.xMin))
    .map((words) => ({
      words: words.map((w) => w.word),
      xMin: words[0]!.xMin,
      xMax: Math.max(...words.map((w) => w.xMax)),
      yMin: Math.min(...words.map((w) => w.yMin)),
      yMax: Math.max(...words.map((w) => w.yMax)),
    }));
}

/** pdfinfo's fields: Pages, Title, Author ... */
export async function pdfInfo(pdf: Buffer): Promise<Record<string, string>> {
  const dir = await scratch(pdf);
  const { stdout } = await run('pdfinfo', ['-enc', 'UTF-8', join(dir, 'document.pdf')]);
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!.trim(), m[2]!.trim()]),
  );
}

/** The fonts a PDF embeds (pdffonts): name and whether embedded. */
export async function pdfFonts(pdf: Buffer): Promise<{ name: string; embedded: boolean }[]> {
  const dir = await scratch(pdf);
  const { stdout } = await run('pdffonts', [join(dir, 'document.pdf')]);
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parts = line.trim().split(/\s+/);
      return { name: parts[0]!, embedded: parts.at(-5) === 'yes' };
    });
}

/** Every page as a PNG (pdftoppm, `dpi`), written to `outDir` (made if needed); answers the paths. */
export async function pdfPagesToPng(pdf: Buffer, outDir: string, prefix: string, dpi = 60): Promise<string[]> {
  const dir = await scratch(pdf);
  await mkdir(outDir, { recursive: true });
  for (const old of (await readdir(outDir)).filter((name) => name.startsWith(`${prefix}-`))) await rm(join(outDir, old));
  await run('pdftoppm', ['-png', '-r', String(dpi), join(dir, 'document.pdf'), join(outDir, prefix)]);
  return (await readdir(outDir))
    .filter((name) => name.startsWith(`${prefix}-`) && name.endsWith('.png'))
    .sort()
    .map((name) => join(outDir, name));
}
