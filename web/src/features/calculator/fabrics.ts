import { categoryOf, type FabricCategory } from './scoring';

export interface Fabric {
  id: string;
  name: string;
  /** Hz, as the popular fabric-frequency chart gives it (not a measured quantity). */
  frequency: number;
  category: FabricCategory;
  benefits: string[];
  considerations: string[];
}

const fabric = (id: string, name: string, frequency: number, benefits: string[], considerations: string[]): Fabric => ({
  id,
  name,
  frequency,
  category: categoryOf(frequency),
  benefits,
  considerations,
});

/**
 * The fixed catalogue (docs/product.md §3): the 19 fabrics the spec names with its
 * frequencies, plus Cashmere, our twentieth. The chart puts wool at 5000 Hz; cashmere is
 * the fine undercoat hair of cashmere goats, a wool, so we place it with wool. That
 * placement is ours, not a figure from the chart (docs/decisions.md).
 */
export const FABRICS: readonly Fabric[] = [
  fabric(
    'linen',
    'Linen',
    5000,
    [
      'Very breathable: lets body heat escape, which many women find helps with hot flashes at night.',
      'Absorbs moisture and dries quickly, so it rarely feels clammy after a night sweat.',
      'Grows softer with every wash; flax needs little water or pesticide to grow.',
    ],
    ['Creases easily.', 'Can feel crisp for the first few washes.', 'Costs more than cotton.'],
  ),
  fabric(
    'wool',
    'Wool',
    5000,
    [
      'Regulates temperature: warm when the room is cool, breathable when you warm up.',
      'Takes up moisture vapour without feeling wet.',
      'Naturally resists odour, so it needs washing less often.',
    ],
    ['Coarser wools can itch sensitive skin.', 'Needs a cool, gentle wash.', 'Heavier weights may feel too warm in a heated bedroom.'],
  ),
  fabric(
    'hemp',
    'Hemp',
    5000,
    [
      'Strong, breathable and absorbent; softens with use.',
      'One of the most durable natural fibres.',
      'Grows with little water and few pesticides.',
    ],
    ['Can feel stiff when new.', 'Fewer sleepwear designs to choose from.', 'Creases like linen.'],
  ),
  fabric(
    'merino-wool',
    'Merino wool',
    5000,
    [
      'Fine fibres that are soft enough for most sensitive skin.',
      'Keeps temperature steady through the night and wicks moisture away.',
      'Resists odour between washes.',
    ],
    ['Costs more than most fabrics.', 'Needs gentle care.', 'Choose lightweight knits if you sleep warm.'],
  ),
  fabric(
    'cashmere',
    'Cashmere',
    5000,
    [
      'Exceptionally soft and light for the warmth it gives.',
      'Breathes and takes up moisture like other wools.',
      'Gentle on skin that finds ordinary wool scratchy.',
    ],
    [
      'Expensive and delicate: hand wash, and expect some pilling.',
      'Warm: best for cool nights and loungewear rather than hot summer sleep.',
      'Look for responsibly sourced cashmere; overgrazing is a real problem.',
    ],
  ),
  fabric(
    'organic-cotton',
    'Organic Cotton',
    100,
    [
      'Soft, breathable and easy to wash.',
      'Grown without synthetic pesticides or fertilisers.',
      "Sits exactly at the body's 100 Hz baseline on the chart.",
    ],
    ['Absorbs sweat but dries slowly, so it can feel damp after a hot flash.', 'May shrink if washed or dried hot.'],
  ),
  fabric(
    'regular-cotton',
    'Regular Cotton',
    40,
    ['Soft, breathable and affordable.', 'Easy to find and easy to care for.'],
    [
      'Conventional cotton is grown with a lot of water and pesticides.',
      'Holds moisture and dries slowly.',
      'Often blended with polyester: check the label.',
    ],
  ),
  fabric(
    'silk',
    'Silk',
    10,
    ['Smooth and gentle on skin and hair.', 'Light, and comfortable in mild temperatures.'],
    [
      'Absorbs less than linen or cotton and shows sweat marks.',
      'Delicate: cool hand wash or a silk cycle.',
      'Costs more than most fabrics.',
    ],
  ),
  fabric(
    'rayon',
    'Rayon',
    15,
    ['Soft, with a fluid drape.', 'Feels cool to the touch.'],
    ['Made from wood pulp through heavy chemical processing.', 'Weak when wet; can shrink or lose its shape.'],
  ),
  fabric(
    'polyester',
    'Polyester',
    0,
    ['Durable, wrinkle-free and inexpensive.', 'Dries quickly.'],
    [
      'Traps heat and does not absorb sweat, which can make night sweats feel worse.',
      'Sheds microplastic fibres in the wash.',
      'It is the first fabric of the Sleepweave study, so you can see its effect on your own sleep.',
    ],
  ),
  fabric(
    'nylon',
    'Nylon',
    0,
    ['Strong, smooth and light.', 'Holds its shape.'],
    ['Breathes poorly and holds heat against the skin.', 'Tends to hold odour.', 'Sheds microplastic fibres.'],
  ),
  fabric(
    'spandex',
    'Spandex',
    0,
    ['Adds stretch and shape retention, usually a few percent of a blend.'],
    ['Close-fitting stretch fabric leaves little room for air.', 'Heat in the dryer breaks it down.'],
  ),
  fabric(
    'polybutylene',
    'Polybutylene',
    0,
    ['Polybutylene terephthalate (PBT) fibre stretches and recovers well and resists chlorine, so it is used in swimwear.'],
    ['Petroleum-based and not breathable.', 'Rarely a good choice for sleepwear.'],
  ),
  fabric(
    'acrylic',
    'Acrylic',
    0,
    ['Light and warm, with a wool-like feel.', 'Inexpensive and easy to wash.'],
    ['Traps heat and moisture.', 'Pills with wear.', 'Sheds microplastic fibres.'],
  ),
  fabric(
    'elastane',
    'Elastane',
    0,
    ['The same fibre as spandex (elastane is the name used in Europe): comfortable stretch in small amounts.'],
    ['Reduces breathability as its share grows.', 'Breaks down with heat and chlorine.'],
  ),
  fabric(
    'bamboo',
    'Bamboo',
    0,
    ['Very soft, with a cool, silky feel.', 'Absorbs moisture well.'],
    [
      'Most "bamboo" fabric is bamboo viscose: the plant is dissolved chemically and spun again, which is why the chart groups it with man-made fibres.',
      'Less durable than cotton or linen.',
    ],
  ),
  fabric(
    'viscose',
    'Viscose',
    0,
    ['Soft, breathable and absorbent, with a silky drape.', 'Affordable.'],
    ['A man-made fibre from wood pulp, produced with harsh chemicals.', 'Weaker when wet; may shrink or lose shape.'],
  ),
  fabric(
    'modal',
    'Modal',
    0,
    ['Very soft and smooth.', 'Absorbent, and shrinks less than viscose.'],
    ['A regenerated (man-made) fibre from beech wood pulp.', 'Often blended with spandex.'],
  ),
  fabric(
    'tencel',
    'Tencel',
    0,
    ['Tencel lyocell is made in a closed-loop process that recovers most of its solvent.', 'Smooth, absorbent and cool to the touch.'],
    ['Still a regenerated (man-made) fibre, which is why the chart places it here.', 'Can wrinkle; wash gently.'],
  ),
  fabric(
    'vegan-leather',
    'Vegan leather',
    0,
    ['Animal-free and easy to wipe clean.'],
    ['Usually polyurethane or PVC plastic.', 'Does not breathe at all: not a fabric for sleepwear.'],
  ),
];

export function findFabric(id: string): Fabric | undefined {
  return FABRICS.find((f) => f.id === id);
}
