import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const linen: SeedArticleSource = {
  id: SEED_IDS.linen,
  content: {
    category: 'Fabric info',
    title: 'Linen: Cool, Breathable and Built to Last',
    summary:
      'Linen is woven from the fibres of the flax plant. It moves air and moisture well, feels cool against the skin and dries quickly, which is why the study ends with a linen phase.',
    imagePath: image('linen.svg'),
    tags: ['linen', 'flax', 'breathability', 'hot flashes', 'natural fibres'],
    bodyHtml: `
<p>Linen is one of the oldest textiles people make. It comes from the long fibres inside the stem of the flax plant, which are separated, spun and woven into cloth. Those fibres are longer, stiffer and smoother than cotton, and that shapes how linen behaves in bed.</p>
<h2>Why linen feels cool</h2>
<ul>
  <li><strong>It stands away from the skin.</strong> Stiffer fibres and a typically looser weave mean the fabric touches you at fewer points, leaving room for air to move between skin and cloth.</li>
  <li><strong>It conducts heat well.</strong> Linen feels cool to the touch because it draws heat away from skin that is warmer than it.</li>
  <li><strong>It handles moisture.</strong> Flax fibres take up water vapour (around 12% of their weight at ordinary room conditions, more than cotton) and release it again quickly. Linen also dries faster than cotton after a sweat, so it is less likely to stay damp and then leave you chilled.</li>
</ul>
<h2>Who may like it</h2>
<p>Women who sleep hot, or who wake with night sweats, often describe linen as comfortable because it does not cling when damp. That is a description of comfort, not a treatment: linen will not stop a hot flash. It may help the hour after one feel a little less sticky. See <a href="${articleLink(SEED_IDS.nightSweats)}">Hot Flashes and Night Sweats</a> for more ways to get through the night.</p>
<h2>What to expect</h2>
<p>New linen can feel crisp, even slightly rough. It softens noticeably with washing and wear, and good linen lasts for many years. It creases easily; in sleepwear that is part of its character, not a flaw.</p>
<h2>Caring for linen</h2>
<ol>
  <li>Wash at 30–40 °C with a mild detergent; skip fabric softener, which coats the fibres and reduces how well they take up moisture.</li>
  <li>Line dry, or tumble dry on low and take it out while still slightly damp.</li>
  <li>Iron while damp if you like a smooth look, or simply shake it out and let it hang.</li>
</ol>
<h2>Linen in the study</h2>
<p>Nights 29 to 42 of the <a href="${articleLink(SEED_IDS.howTheStudyWorks)}">study</a> are the linen phase. Wear your 100% linen pyjamas each night, keep the bedroom at 21–23 °C and log as usual, so your linen nights can be compared fairly with your polyester nights.</p>
`,
  },
};
