import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const silkAndPolyester: SeedArticleSource = {
  id: SEED_IDS.silkAndPolyester,
  content: {
    category: 'Fabric info',
    title: "Silk and Polyester: Smooth Isn't the Same as Breathable",
    summary:
      'Silk and polyester satin can look almost identical, but they behave very differently in bed. Here is what each fibre does with heat and sweat, and why polyester is the first phase of the study.',
    imagePath: image('silk-polyester.svg'),
    tags: ['silk', 'polyester', 'satin', 'synthetic fibres', 'breathability'],
    bodyHtml: `
<p>A shiny, smooth pair of pyjamas might be silk, or it might be polyester. The word <em>satin</em> describes a weave with a glossy surface, not a fibre, and most satin sleepwear sold today is polyester. On the hanger the two look alike; at three in the morning they can feel very different.</p>
<h2>Silk</h2>
<p>Silk is a protein fibre spun by silkworms. It is fine, smooth and light, so it glides over the skin with little friction, which many people with sensitive skin appreciate. Silk absorbs a fair amount of water vapour (about 11% of its weight at ordinary room conditions) and is a reasonable insulator for its weight: it can feel cool when you first touch it and comfortably warm later.</p>
<p>Its drawbacks are practical. Silk is delicate, shows water marks, and needs a gentle, cool wash with a mild detergent, out of direct sun. Heavy sweating can stain and weaken it over time.</p>
<h2>Polyester</h2>
<p>Polyester is made from petroleum-based plastic drawn into fibres. It is strong, cheap, keeps its colour and does not crease. In bed, its key property is that the fibre absorbs almost no water: well under 1% of its weight.</p>
<ul>
  <li>When you sweat, ordinary polyester sleepwear cannot take the moisture into the fibre, so it stays on your skin or in the fabric's surface.</li>
  <li>Smooth, tightly woven polyester satin also lets relatively little air through.</li>
  <li>The result, for many hot sleepers, is a warm, clammy feeling.</li>
</ul>
<p>To be fair to polyester: technical sports fabrics are engineered to wick liquid sweat and can perform well while you move. Most polyester pyjamas are not built that way.</p>
<h2>Why the study starts with polyester</h2>
<p>Polyester is the most common synthetic in sleepwear, so it is a realistic comparison for natural fibres. Nights 1 to 14 are the polyester phase, followed by a cotton washout and then linen. Comparing each woman's polyester nights with her own linen nights shows whether the fabric makes a measurable difference for her. Read <a href="${articleLink(SEED_IDS.howTheStudyWorks)}">How the 42-Night Fabric Study Works</a> for the details.</p>
`,
  },
};
