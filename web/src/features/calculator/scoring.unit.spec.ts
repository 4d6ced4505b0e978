import { describe, expect, it } from 'vitest';
import { analyseBlend, analyseFabric } from './analysis';
import { FABRICS, findFabric } from './fabrics';
import {
  blendFrequency,
  blendTotal,
  canRemoveRow,
  categoryOf,
  energyScore,
  formatHz,
  isCompleteTotal,
  blendProblem,
  isValidBlend,
  parsePercentage,
  sanitizePercentageInput,
  scoreLabel,
  type BlendRow,
} from './scoring';

describe('categoryOf (docs/product.md §4)', () => {
  it.each([
    [5000, 'high'],
    [1000, 'high'],
    [999.9, 'balanced'],
    [100, 'balanced'],
    [99.9, 'low'],
    [50, 'low'],
    [10, 'low'],
    [9.9, 'synthetic'],
    [0, 'synthetic'],
  ] as const)('%s Hz is %s', (frequency, category) => {
    expect(categoryOf(frequency)).toBe(category);
  });
});

describe('energyScore (docs/product.md §9)', () => {
  it.each([
    [5000, 95],
    [1000, 95],
    [999.9, 80],
    [100, 80],
    [99.9, 60],
    [50, 60],
    [49.9, 30],
    [10, 30],
    [9.9, 0],
    [0, 0],
  ])('%s Hz scores %s', (frequency, score) => {
    expect(energyScore(frequency)).toBe(score);
  });

  it.each([
    [95, 'High Energy'],
    [80, 'Balanced Energy'],
    [60, 'Moderate Energy'],
    [30, 'Low Energy'],
    [0, 'Minimal Energy'],
  ])('score %s is labelled %s', (score, label) => {
    expect(scoreLabel(score)).toBe(label);
  });
});

describe('parsePercentage (docs/product.md §5)', () => {
  it.each([
    ['60', 60],
    [' 40 ', 40],
    ['0', 0],
    ['100', 100],
    ['', 0],
    ['abc', 0],
    ['60.7', 60],
    ['150', 100],
    ['-5', 0],
  ])('%j counts as %s', (raw, value) => {
    expect(parsePercentage(raw)).toBe(value);
  });

  it.each([
    ['60', '60'],
    ['6a0', '60'],
    ['abc', ''],
    ['', ''],
    ['007', '007'],
    ['150', '150'],
    ['50.', '50.'],
    ['50.5', '50.5'],
    ['33,3', '33,3'],
    ['1.2.3', '1.23'],
    ['-5', '-5'],
    [' -30', '-30'],
    ['5-', '5'],
    ['-', '-'],
    ['99999999', '999999'],
  ])('the box keeps %j as %j', (raw, kept) => {
    expect(sanitizePercentageInput(raw)).toBe(kept);
  });
});

const row = (fabricId: string, percentage: string): BlendRow => ({ fabricId, percentage });

describe('blend rules (sections 2 and 5)', () => {
  it.each([
    ['99', [row('linen', '59'), row('polyester', '40')], 99, false],
    ['100', [row('linen', '60'), row('polyester', '40')], 100, true],
    ['101', [row('linen', '61'), row('polyester', '40')], 101, false],
    ['100 over three rows', [row('linen', '50'), row('organic-cotton', '30'), row('silk', '20')], 100, true],
    ['a single row of 100', [row('linen', '100')], 100, false],
    ['a row without a fabric', [row('linen', '60'), row('', '40')], 100, false],
    ['a row at 0 %', [row('linen', '100'), row('silk', '0')], 100, false],
    ['a row that is not a number', [row('linen', '100'), row('silk', 'abc')], 100, false],
    ['over 100 in one box (as typed, not capped)', [row('linen', '101'), row('silk', '0')], 101, false],
    ['a negative box (as typed)', [row('linen', '-30'), row('silk', '70')], 40, false],
    ['a negative box making 100', [row('linen', '-30'), row('silk', '130')], 100, false],
  ])('total %s: Total %s, valid %s', (_label, rows, total, valid) => {
    expect(blendTotal(rows)).toBe(total);
    expect(isCompleteTotal(total)).toBe(total === 100);
    expect(isValidBlend(rows)).toBe(valid);
  });

  it.each([
    [[row('linen', '60'), row('', '40')], 'Choose a fabric for every row.'],
    [[row('linen', '70'), row('cotton', '30'), row('', '')], 'Choose a fabric for every row, or remove the empty one.'],
    [[row('linen', '100'), row('silk', '0')], 'Give every fabric a percentage above 0.'],
    [[row('linen', '100'), row('silk', 'abc')], 'Give every fabric a percentage above 0.'],
    [[row('linen', '59'), row('silk', '40')], 'The percentages must add up to exactly 100%.'],
    [[row('linen', '50.5'), row('silk', '49.5')], 'Percentages are whole numbers: 50, not 50.5.'],
    [[row('linen', '50,'), row('silk', '50')], 'Percentages are whole numbers: 50, not 50.5.'],
    [[row('linen', '150'), row('silk', '50')], 'A percentage is at most 100.'],
    [[row('linen', '101'), row('silk', '0')], 'A percentage is at most 100.'],
    [[row('linen', '-30'), row('silk', '130')], 'A percentage cannot be negative.'],
    [[row('linen', '-'), row('silk', '100')], 'A percentage cannot be negative.'],
    [[row('linen', '060'), row('silk', '40')], null],
    [[row('linen', '100')], 'A blend needs at least two fabrics.'],
    [[row('linen', '60'), row('silk', '40')], null],
  ])('says what keeps %j from being calculated: %s', (rows, problem) => {
    expect(blendProblem(rows)).toBe(problem);
  });

  it('offers remove only above two rows', () => {
    expect(canRemoveRow([1, 2])).toBe(false);
    expect(canRemoveRow([1, 2, 3])).toBe(true);
  });

  it.each([
    [
      '99',
      [
        { frequency: 5000, percentage: 59 },
        { frequency: 0, percentage: 40 },
      ],
      0,
    ],
    [
      '100',
      [
        { frequency: 5000, percentage: 60 },
        { frequency: 0, percentage: 40 },
      ],
      3000,
    ],
    [
      '101',
      [
        { frequency: 5000, percentage: 61 },
        { frequency: 0, percentage: 40 },
      ],
      0,
    ],
    [
      '100, cottons',
      [
        { frequency: 100, percentage: 50 },
        { frequency: 40, percentage: 50 },
      ],
      70,
    ],
    [
      '100, low',
      [
        { frequency: 10, percentage: 60 },
        { frequency: 15, percentage: 40 },
      ],
      12,
    ],
  ])('weighted average with total %s is %s Hz', (_label, components, frequency) => {
    expect(blendFrequency(components)).toBeCloseTo(frequency, 10);
  });
});

describe('catalogue (docs/product.md §3)', () => {
  it('holds 20 fabrics with unique ids and the spec frequencies', () => {
    expect(FABRICS).toHaveLength(20);
    expect(new Set(FABRICS.map((f) => f.id)).size).toBe(20);
    const byName = Object.fromEntries(FABRICS.map((f) => [f.name, f.frequency]));
    expect(byName).toMatchObject({
      Linen: 5000,
      Wool: 5000,
      Hemp: 5000,
      'Merino wool': 5000,
      'Organic Cotton': 100,
      'Regular Cotton': 40,
      Silk: 10,
      Rayon: 15,
      Polyester: 0,
      Nylon: 0,
      Spandex: 0,
      Polybutylene: 0,
      Acrylic: 0,
      Elastane: 0,
      Bamboo: 0,
      Viscose: 0,
      Modal: 0,
      Tencel: 0,
      'Vegan leather': 0,
      Cashmere: 5000,
    });
  });

  it('gives every fabric its category by frequency, benefits and considerations', () => {
    for (const fabric of FABRICS) {
      expect(fabric.category, fabric.name).toBe(categoryOf(fabric.frequency));
      expect(fabric.benefits.length, fabric.name).toBeGreaterThan(0);
      expect(fabric.considerations.length, fabric.name).toBeGreaterThan(0);
    }
  });
});

describe('analysis', () => {
  it('analyses a single fabric', () => {
    const result = analyseFabric(findFabric('linen')!);
    expect(result).toMatchObject({ kind: 'single', title: 'Linen', frequency: 5000, score: 95, label: 'High Energy', category: 'high' });
    expect(result.benefits.length).toBeGreaterThan(0);
    expect(result.composition).toEqual([]);
  });

  it('analyses a 60/40 blend with each fabric’s contribution', () => {
    const result = analyseBlend([row('linen', '60'), row('organic-cotton', '40')])!;
    expect(result).toMatchObject({ kind: 'blend', title: 'Fabric Blend Analysis', frequency: 3040, score: 95, category: 'high' });
    expect(result.composition.map((c) => [c.fabric.name, c.percentage, c.contributionHz])).toEqual([
      ['Linen', 60, 3000],
      ['Organic Cotton', 40, 40],
    ]);
  });

  it('refuses an invalid blend', () => {
    expect(analyseBlend([row('linen', '60'), row('organic-cotton', '41')])).toBeNull();
  });

  it.each([
    [5000, '5,000 Hz'],
    [12, '12 Hz'],
    [4.95, '5 Hz'],
    [1650.25, '1,650.3 Hz'],
  ])('formats %s as %s', (frequency, text) => {
    expect(formatHz(frequency)).toBe(text);
  });
});
