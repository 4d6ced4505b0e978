import { describe, expect, it } from 'vitest';
import { fontRuns, hasEmoji } from './emoji.ts';

describe('fontRuns', () => {
  it('gives what is shown as a picture to the emoji font, one grapheme at a time, and keeps every character in order', () => {
    const text = 'I rest well 🌙✨ and I am enough 💜.';
    expect(fontRuns(text)).toEqual([
      { text: 'I rest well ', emoji: false },
      { text: '🌙✨', emoji: true },
      { text: ' and I am enough ', emoji: false },
      { text: '💜', emoji: true },
      { text: '.', emoji: false },
    ]);
  });

  it('keeps a sequence whole: a skin tone, a family, a flag, a keycap, a heart asked to be an emoji', () => {
    for (const sequence of ['👍🏽', '👩‍❤️‍👨', '🇬🇧', '1️⃣', '❤️', '🏳️‍🌈']) {
      expect(fontRuns(`a${sequence}b`)).toEqual([
        { text: 'a', emoji: false },
        { text: sequence, emoji: true },
        { text: 'b', emoji: false },
      ]);
    }
  });

  it('leaves signs whose default is text in the text font (© ✓ ☺ ❤ ½ €), and a text with none as one run', () => {
    const signs = 'Signs she may type: ’ “ ” – — ° ½ ≥ € … ✓ ☺ © ❤ 1 #';
    expect(hasEmoji(signs)).toBe(false);
    expect(fontRuns(signs)).toEqual([{ text: signs, emoji: false }]);
    expect(fontRuns('')).toEqual([]);
    expect(hasEmoji('A cool night 🙏')).toBe(true);
  });

  it('gives a sign whose default is text to the emoji font when the text font has no glyph for it (🛏 typed without U+FE0F)', () => {
    const covers = (codePoint: number) => codePoint !== 0x1f6cf;
    expect(hasEmoji('To bed 🛏 at ten ©', covers)).toBe(true);
    expect(fontRuns('To bed 🛏 at ten ©', covers)).toEqual([
      { text: 'To bed ', emoji: false },
      { text: '🛏', emoji: true },
      { text: ' at ten ©', emoji: false },
    ]);
    expect(hasEmoji('To bed 🛏', () => true)).toBe(false);
  });
});
