import { findFabric, type Fabric } from './fabrics';
import {
  blendFrequency,
  categoryOf,
  energyScore,
  isValidBlend,
  parsePercentage,
  recommendationFor,
  scoreLabel,
  type BlendRow,
  type FabricCategory,
} from './scoring';

export interface BlendComponent {
  fabric: Fabric;
  percentage: number;
  /** frequency × percentage / 100: this fabric's share of the blend's frequency, in Hz. */
  contributionHz: number;
}

export interface Analysis {
  kind: 'single' | 'blend';
  /** The fabric's name, or 'Fabric Blend Analysis'. */
  title: string;
  frequency: number;
  category: FabricCategory;
  score: number;
  label: string;
  recommendation: string;
  /** Single fabric only. */
  benefits: string[];
  considerations: string[];
  /** Blend only. */
  composition: BlendComponent[];
}

export function analyseFabric(fabric: Fabric): Analysis {
  const score = energyScore(fabric.frequency);
  return {
    kind: 'single',
    title: fabric.name,
    frequency: fabric.frequency,
    category: fabric.category,
    score,
    label: scoreLabel(score),
    recommendation: recommendationFor(score, 'single'),
    benefits: fabric.benefits,
    considerations: fabric.considerations,
    composition: [],
  };
}

/** null unless the blend is valid (two or more rows, each a fabric above 0 %, total 100). */
export function analyseBlend(rows: readonly BlendRow[]): Analysis | null {
  if (!isValidBlend(rows)) return null;
  const components = rows.map((row) => {
    const fabric = findFabric(row.fabricId);
    if (!fabric) throw new Error(`Unknown fabric ${row.fabricId}`);
    const percentage = parsePercentage(row.percentage);
    return { fabric, percentage, contributionHz: (fabric.frequency * percentage) / 100 };
  });
  const frequency = blendFrequency(components.map((c) => ({ frequency: c.fabric.frequency, percentage: c.percentage })));
  const score = energyScore(frequency);
  return {
    kind: 'blend',
    title: 'Fabric Blend Analysis',
    frequency,
    category: categoryOf(frequency),
    score,
    label: scoreLabel(score),
    recommendation: recommendationFor(score, 'blend'),
    benefits: [],
    considerations: [],
    composition: components,
  };
}
