import { describe, expect, it } from 'vitest';
import { fontRuns, type Covers } from './font-runs.ts';
import { CJK_FONT_FILES, EMOJI_FONT_FILES, FONT_FILES, cjkOrder, fontStack } from './fonts.ts';

const TEXT = FONT_FILES.regular;
const EMOJI = EMOJI_FONT_FILES.regular;
const { zh: ZH, ja: JA, ko: KO } = { zh: CJK_FONT_FILES.zh.regular, ja: CJK_FONT_FILES.ja.regular, ko: CJK_FONT_FILES.ko.regular };

const han = (cp: number) => cp >= 0x4e00 && cp <= 0x9fff;
const kana = (cp: number) => cp >= 0x3040 && cp <= 0x30ff;
const cjkSigns = (cp: number) => (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xffef);
/** The fonts' glyphs, as the real files have them where these tests look (no file is read). */
const glyphs: Record<string, (cp: number) => boolean> = {
  // DejaVu Sans: Latin to Arabic and the signs, none of 🛏 (U+1F6CF), Thai, CJK or emoji
  [TEXT]: (cp) => cp < 0x0e00 || (cp >= 0x2000 && cp < 0x2e00 && cp !== 0x2460),
  // its oblique lacks Arabic
  [FONT_FILES.oblique]: (cp) => (cp < 0x0e00 && !(cp >= 0x0600 && cp <= 0x06ff)) || (cp >= 0x2000 && cp < 0x2e00 && cp !== 0x2460),
  // Noto Sans SC: every ideograph, kana, the CJK signs, ① (U+2460), no Hangul
  [ZH]: (cp) => cp < 0x0250 || han(cp) || kana(cp) || cjkSigns(cp) || cp === 0x2460,
  // Noto Sans JP: not 们 (U+4EEC), a simplified ideograph
  [JA]: (cp) => cp < 0x0250 || (han(cp) && cp !== 0x4eec) || kana(cp) || cjkSigns(cp),
  // Noto Sans KR: Hangul and the ideographs used in Korean
  [KO]: (cp) => cp < 0x0250 || (han(cp) && cp !== 0x4eec) || (cp >= 0xac00 && cp <= 0xd7a3) || kana(cp) || cjkSigns(cp),
  [EMOJI]: (cp) => cp >= 0x1f000 || cp === 0x2728 || cp === 0x2764 || (cp >= 0x30 && cp <= 0x39),
};
const covers: Covers = (font) => glyphs[font] ?? (() => false);
const runs = (text: string, options: { context?: string; weight?: 'regular' | 'oblique' } = {}) =>
  fontRuns(text, options.weight ?? 'regular', { context: options.context, covers });

describe('fontRuns: emoji', () => {
  it('gives what is shown as a picture to the emoji font, one grapheme at a time, and keeps every character in order', () => {
    expect(runs('I rest well 🌙✨ and I am enough 💜.')).toEqual([
      { text: 'I rest well ', font: TEXT },
      { text: '🌙✨', font: EMOJI },
      { text: ' and I am enough ', font: TEXT },
      { text: '💜', font: EMOJI },
      { text: '.', font: TEXT },
    ]);
  });

  it('keeps a sequence whole: a skin tone, a family, a flag, a keycap, a heart asked to be an emoji', () => {
    for (const sequence of ['👍🏽', '👩‍❤️‍👨', '🇬🇧', '1️⃣', '❤️', '🏳️‍🌈']) {
      expect(runs(`a${sequence}b`)).toEqual([
        { text: 'a', font: TEXT },
        { text: sequence, font: EMOJI },
        { text: 'b', font: TEXT },
      ]);
    }
  });

  it('leaves a text the text font has every glyph of to pdfkit whole: signs whose default is text (© ✓ ☺ ❤), accents typed apart, line breaks', () => {
    expect(runs('Signs she may type: ’ “ ” – — ° ½ ≥ € … ✓ ☺ © ❤ 1 #')).toBeNull();
    expect(runs('Zoe\u0308 ☺\uFE0E\nnext line\r\n\tend')).toBeNull();
    expect(runs('')).toBeNull();
    expect(runs('A cool night 🙏')).not.toBeNull();
  });

  it('gives a sign whose default is text to the emoji font when the text font has no glyph for it (🛏 typed without U+FE0F)', () => {
    expect(runs('To bed 🛏 at ten ©')).toEqual([
      { text: 'To bed ', font: TEXT },
      { text: '🛏', font: EMOJI },
      { text: ' at ten ©', font: TEXT },
    ]);
  });
});

describe('fontRuns: Chinese, Japanese, Korean', () => {
  it('sets Chinese in Noto Sans SC, and the Latin, spaces and digits around it in DejaVu Sans', () => {
    expect(runs('睡得很好，linen 7 分。')).toEqual([
      { text: '睡得很好，', font: ZH },
      { text: 'linen 7 ', font: TEXT },
      { text: '分。', font: ZH },
    ]);
  });

  it('sets ideographs in a text with kana in Noto Sans JP (drawn as in Japan), and in a text with Hangul in Noto Sans KR', () => {
    expect(runs('今晩はよく眠れた 😴')).toEqual([
      { text: '今晩はよく眠れた', font: JA },
      { text: ' ', font: TEXT },
      { text: '😴', font: EMOJI },
    ]);
    expect(runs('잠을 잘 잤어요 (熟睡)')).toEqual([
      { text: '잠을', font: KO },
      { text: ' ', font: TEXT },
      { text: '잘', font: KO },
      { text: ' ', font: TEXT },
      { text: '잤어요', font: KO },
      { text: ' (', font: TEXT },
      { text: '熟睡', font: KO },
      { text: ')', font: TEXT },
    ]);
    expect(runs('熟睡')).toEqual([{ text: '熟睡', font: ZH }]);
  });

  it('orders the fonts by the whole text a line is a part of', () => {
    expect(runs('眠い', { context: 'よく眠れた\n眠い' })).toEqual([{ text: '眠い', font: JA }]);
    expect(cjkOrder('眠')).toEqual(['zh', 'ja', 'ko']);
    expect(cjkOrder('ねむい')).toEqual(['ja', 'zh', 'ko']);
    expect(cjkOrder('잠')).toEqual(['ko', 'zh', 'ja']);
  });

  it('gives a grapheme to the next font that has it: an ideograph Japanese lacks to SC, a sign DejaVu lacks to a CJK font, Arabic in a note to upright DejaVu', () => {
    expect(runs('我们はね')).toEqual([
      { text: '我', font: JA },
      { text: '们', font: ZH },
      { text: 'はね', font: JA },
    ]);
    expect(runs('① rest')).toEqual([
      { text: '①', font: ZH },
      { text: ' rest', font: TEXT },
    ]);
    expect(fontStack('oblique', 'x')).toEqual([
      FONT_FILES.oblique,
      FONT_FILES.regular,
      CJK_FONT_FILES.zh.regular,
      CJK_FONT_FILES.ja.regular,
      CJK_FONT_FILES.ko.regular,
      EMOJI_FONT_FILES.oblique,
    ]);
    expect(runs('note: نمت جيدا', { weight: 'oblique' })).toEqual([
      { text: 'note: ', font: FONT_FILES.oblique },
      { text: 'نمت', font: TEXT },
      { text: ' ', font: FONT_FILES.oblique },
      { text: 'جيدا', font: TEXT },
    ]);
  });

  it('keeps in the text font what no font has (an empty box, the text still read as typed)', () => {
    expect(runs('นอนหลับ')).toBeNull();
    expect(runs('นอน 眠')).toEqual([
      { text: 'นอน ', font: TEXT },
      { text: '眠', font: ZH },
    ]);
  });
});
