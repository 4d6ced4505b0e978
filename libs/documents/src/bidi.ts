import bidiFactory from 'bidi-js';
import { drawLine } from './font-runs.ts';
import type { FontWeight } from './fonts.ts';

/**
 * Right-to-left text (Hebrew, Arabic) for pdfkit, which has none of the Unicode bidirectional
 * algorithm (foliojs/pdfkit#219): it set the words of a Hebrew sentence left to right, each
 * word right and the sentence backwards. Here the lines are broken by us, and each line is
 * set word by word in visual order (bidi-js: UAX #9; brackets mirrored), each word handed to
 * pdfkit alone, which fontkit (its shaper) sets right to left when its script is. A paragraph
 * whose first strong letter is right-to-left is aligned right. Text with no right-to-left
 * letter is left to pdfkit as before.
 */
const bidi = bidiFactory();

/** Hebrew, Arabic, Syriac, Thaana, N'Ko, Samaritan, Mandaic, and their presentation forms. */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]/;

export const hasRightToLeft = (text: string): boolean => RIGHT_TO_LEFT.test(text);

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** What of pdfkit's document is used here: the width of a string in the current font and size (each run in its font: PdfReport.measure). */
export interface Measure {
  widthOfString(text: string): number;
}

/** One line: its pieces (words and spaces) left to right, each with its width; `rtl`: its paragraph is right to left. */
export interface BidiLine {
  runs: { text: string; width: number }[];
  width: number;
  rtl: boolean;
}

/**
 * Where each line of `text` starts and ends (end exclusive), at most `width` wide, broken
 * between words (inside a word too long for a line). A line is measured as `drawBidiLine`
 * sets it, piece by piece: the sum of its words' and spaces' widths, each piece measured
 * once (measuring every line's text again at each word made a long paragraph quadratic: a
 * journal of 600 long entries in Hebrew, Chinese and emoji took 71 s to export).
 */
function breakLines(doc: Measure, text: string, width: number): [number, number][] {
  const widths = new Map<string, number>();
  const widthOf = (piece: string) => {
    let measured = widths.get(piece);
    if (measured === undefined) widths.set(piece, (measured = doc.widthOfString(piece)));
    return measured;
  };
  const lines: [number, number][] = [];
  let start = 0;
  while (start < text.length) {
    let end = -1;
    let used = 0;
    const pieces = /(\s+)|\S+/g;
    pieces.lastIndex = start;
    for (let piece = pieces.exec(text); piece; piece = pieces.exec(text)) {
      used += widthOf(piece[0]);
      if (piece[1] !== undefined) continue; // a space counts once a word follows it
      if (used > width) break;
      end = piece.index + piece[0].length;
    }
    if (end === -1) {
      // the first word alone is too wide: as much of it as fits, by what a reader takes for
      // one character ("👍🏽" whole; one at least)
      end = start;
      for (const { segment, index } of graphemes.segment(text.slice(start))) {
        const next = start + index + segment.length;
        if (/\s/.test(segment) || (end > start && doc.widthOfString(text.slice(start, next)) > width)) break;
        end = next;
      }
    }
    lines.push([start, end]);
    start = end;
    while (start < text.length && /\s/.test(text[start]!)) start += 1;
  }
  return lines;
}

/**
 * The pieces of one line in visual order, left to right: its runs (characters next to each
 * other in one direction) in visual order, and within a right-to-left run its words and
 * spaces backwards. Each word stays in its logical order: fontkit sets a word of a
 * right-to-left script right to left (pdfkit hands it word by word, so a run given whole
 * came out with its words left to right).
 */
function visualRuns(text: string, levels: ReturnType<typeof bidi.getEmbeddingLevels>, start: number, end: number) {
  const runs: { rtl: boolean; from: number; to: number }[] = [];
  // (the indices of the whole paragraph, this line's reordered)
  for (const i of bidi.getReorderedIndices(text, levels, start, end - 1).slice(start, end)) {
    const rtl = levels.levels[i]! % 2 === 1;
    const run = runs.at(-1);
    if (run && run.rtl === rtl && (rtl ? i === run.from - 1 : i === run.to + 1)) {
      if (rtl) run.from = i;
      else run.to = i;
    } else {
      runs.push({ rtl, from: i, to: i });
    }
  }
  // a bracket in a right-to-left run is its mirror image: "(" opens to the left there
  const mirrored = bidi.getMirroredCharactersMap(text, levels.levels, start, end - 1);
  // this line's text so (by UTF-16 unit, as the map's indices: a surrogate pair is split and
  // joined again unchanged)
  let shown = '';
  for (let i = start; i < end; i++) shown += mirrored.get(i) ?? text[i]!;
  return runs.flatMap((run) => {
    const pieces = shown
      .slice(run.from - start, run.to + 1 - start)
      .split(/(\s+)/)
      .filter((piece) => piece !== '');
    // a piece with no right-to-left letter (":)", "?!", emoji) is not set right to left by
    // fontkit: reversed here, by what a reader takes for one character
    return run.rtl ? pieces.reverse().map((piece) => (hasRightToLeft(piece) ? piece : reversedGraphemes(piece))) : pieces;
  });
}

const reversedGraphemes = (text: string) =>
  [...graphemes.segment(text)]
    .map((part) => part.segment)
    .reverse()
    .join('');

/** `text` (its own line breaks kept) as lines at most `width` wide, for `drawBidiLine`. */
export function bidiLines(doc: Measure, text: string, width: number): BidiLine[] {
  const lines: BidiLine[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (paragraph.trim() === '') {
      lines.push({ runs: [], width: 0, rtl: false });
      continue;
    }
    const levels = bidi.getEmbeddingLevels(paragraph, 'auto');
    const rtl = (levels.paragraphs[0]?.level ?? 0) % 2 === 1;
    for (const [start, end] of breakLines(doc, paragraph, width)) {
      const runs = visualRuns(paragraph, levels, start, end).map((run) => ({ text: run, width: doc.widthOfString(run) }));
      lines.push({ runs, width: runs.reduce((sum, run) => sum + run.width, 0), rtl });
    }
  }
  return lines;
}

/** Sets one line at `y` between `left` and `left + width`: at its paragraph's start side, centred or at the right (each run in its font). */
export function drawBidiLine(
  doc: PDFKit.PDFDocument,
  weight: FontWeight,
  line: BidiLine,
  box: { left: number; width: number; y: number; align?: 'start' | 'center' | 'right' },
): void {
  const right = box.align === 'right' || (box.align !== 'center' && line.rtl);
  let x = box.align === 'center' ? box.left + (box.width - line.width) / 2 : right ? box.left + box.width - line.width : box.left;
  for (const run of line.runs) {
    if (run.text.trim() !== '') drawLine(doc, weight, run.text, x, box.y);
    x += run.width;
  }
}
