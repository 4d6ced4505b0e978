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
