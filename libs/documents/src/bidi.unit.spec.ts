import { describe, expect, it } from 'vitest';
import { bidiLines } from './bidi.ts';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** 10 points a grapheme: what a reader takes for one character. */
const measure = { widthOfString: (text: string) => [...graphemes.segment(text)].length * 10 };

describe('bidiLines', () => {
  it('breaks a word too long for a line between graphemes, never inside one (a skin tone, a surrogate pair)', () => {
    const text = `ישנתי ${'👍🏽'.repeat(20)}`;
    for (let width = 10; width <= 200; width += 5) {
      const lines = bidiLines(measure, text, width);
      const pieces = lines.flatMap((line) => line.runs.map((run) => run.text)).filter((piece) => piece.trim() !== '');
      for (const piece of pieces) expect(piece).toMatch(/^(?:[\u05D0-\u05EA]+|(?:👍🏽)+)$/u);
      expect(pieces.join('').match(/👍🏽/gu)).toHaveLength(20);
      for (const line of lines) expect(line.width).toBeLessThanOrEqual(width);
    }
  });
});

describe('bidiLines on a long paragraph', () => {
  // 400 words of Hebrew and English, 8 different ones
  const words = ['שינה', 'טובה', 'sleep', 'well', 'לילה', 'night', 'טוב', 'linen'];
  const text = Array.from({ length: 400 }, (_, i) => words[i % words.length]).join(' ');

  it('measures each word and space once, not each line again at every word', () => {
    const measured: string[] = [];
    const counting = { widthOfString: (piece: string) => (measured.push(piece), measure.widthOfString(piece)) };
    const lines = bidiLines(counting, text, 300);
    expect(lines.length).toBeGreaterThan(40);
    // the breaking: each distinct piece once (8 words and a space); then each line's pieces, to draw
    const drawn = lines.reduce((sum, line) => sum + line.runs.length, 0);
    expect(measured.length).toBe(words.length + 1 + drawn);
  });

  it('breaks where the line is full: its words and spaces fit, and the next word would not', () => {
    const english = Array.from({ length: 400 }, (_, i) => ['sleep', 'well', 'in', 'linen', 'tonight'][i % 5]).join(' ');
    const lines = bidiLines(measure, english, 300);
    lines.forEach((line, i) => {
      expect(line.width).toBeLessThanOrEqual(300);
      const nextWord = lines[i + 1]?.runs[0];
      if (nextWord) expect(line.width + measure.widthOfString(' ') + nextWord.width).toBeGreaterThan(300);
    });
    for (const mixed of [english, text]) {
      const pieces = bidiLines(measure, mixed, 300).flatMap((line) => line.runs.map((run) => run.text));
      expect(pieces.filter((piece) => piece.trim() !== '')).toHaveLength(400);
    }
  });
});
