import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const wool: SeedArticleSource = {
  id: SEED_IDS.wool,
  content: {
    category: 'Fabric info',
    title: 'Wool and Merino: Not Just for Winter',
    summary:
      'Wool keeps you warm, but fine merino sleepwear is also valued by people who sleep hot. It takes up a lot of moisture vapour before it feels wet and helps steady the temperature next to your skin.',
    imagePath: image('wool.svg'),
    tags: ['wool', 'merino', 'thermoregulation', 'moisture', 'natural fibres'],
    bodyHtml: `
<p>Wool is a protein fibre grown by sheep. Its fibres are naturally crimped, so a wool fabric holds many tiny pockets of still air. That is why a wool jumper is warm. It is less well known that wool can also be comfortable on warmer nights.</p>
<h2>How wool handles heat and moisture</h2>
<ul>
  <li><strong>It absorbs a lot of vapour.</strong> Of the common clothing fibres, wool takes up the most water vapour: about 13–16% of its weight at ordinary room conditions, and considerably more in humid air, before it starts to feel damp.</li>
  <li><strong>It buffers changes.</strong> When wool takes up moisture it releases a small amount of heat, and when it dries it takes some back. The effect is modest, but it helps smooth out swings in the microclimate next to your skin, for example during and after a night sweat.</li>
  <li><strong>It insulates without trapping sweat.</strong> Because vapour moves into the fibre instead of condensing on your skin, wool can keep you warm without the clammy feeling of a synthetic layer.</li>
</ul>
<h2>Merino: the soft one</h2>
<p>Many people remember wool as itchy. Prickle comes from thick, stiff fibre ends pressing on the skin. Merino sheep grow much finer fibres, and fine merino jersey feels soft to most people. If you have a wool allergy or very reactive skin, try a small item first.</p>
<h2>What studies suggest</h2>
<p>A handful of small laboratory studies have compared sleepwear made of wool, cotton and polyester. Some reported that participants fell asleep a little faster or slept slightly better in wool under certain conditions. The groups were small and the conditions controlled, so treat these findings as interesting, not settled. Wool is not one of the fabrics in our study, which compares polyester, cotton and linen.</p>
<h2>Choosing and caring for wool sleepwear</h2>
<ul>
  <li>Look for a light merino jersey for sleepwear; heavier knits are for cold bedrooms.</li>
  <li>Wash on a wool or hand-wash cycle in cool water with a wool detergent, and dry flat. Hot water and tumbling felt and shrink wool.</li>
  <li>Wool resists odours well, so it needs washing less often than cotton.</li>
</ul>
<p>For a comparison of all the fibres, see <a href="${articleLink(SEED_IDS.fabricsAndSleep)}">Why Fabric Matters for Sleep</a>.</p>
`,
  },
};
