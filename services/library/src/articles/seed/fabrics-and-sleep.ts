import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const fabricsAndSleep: SeedArticleSource = {
  id: SEED_IDS.fabricsAndSleep,
  content: {
    category: 'Fabric info',
    title: 'Why Fabric Matters for Sleep',
    summary:
      'What you wear in bed sits in the small layer of air where your body sheds heat and moisture all night. Here is how breathability, moisture handling and warmth differ between fabrics, and why that can change how you sleep.',
    imagePath: image('fabrics-and-sleep.svg'),
    tags: ['fabrics', 'breathability', 'moisture wicking', 'thermoregulation', 'natural fibres'],
    bodyHtml: `
<p>Falling asleep is partly a cooling process. In the evening your core body temperature starts to drop, and your body sends warm blood to your hands, feet and skin so that heat can leave. Anything that slows that heat loss, such as a warm room, heavy bedding or fabric that traps heat and sweat, can make it harder to fall asleep and easier to wake.</p>
<p>Sleepwear sits right in that exchange. Between your skin and your bedding there is a thin layer of air, sometimes called the <em>bed microclimate</em>. Its temperature and humidity depend a great deal on what that layer is made of.</p>
<h2>Three properties that matter</h2>
<ul>
  <li><strong>Breathability (air permeability).</strong> How easily air and water vapour pass through the fabric. A loose weave of a stiff fibre, like linen, lets more air move than a dense, smooth knit.</li>
  <li><strong>Moisture handling.</strong> Even on a cool night you lose water through your skin, and more during a night sweat. Natural fibres absorb water vapour into the fibre itself. Textile scientists measure this as <em>moisture regain</em>: at ordinary room conditions cotton holds roughly 8% of its weight in moisture, linen about 12%, silk about 11% and wool about 13–16%, while standard polyester holds well under 1%.</li>
  <li><strong>Insulation and feel.</strong> Crimped fibres such as wool trap still air and keep you warm; smooth, stiff fibres such as linen touch the skin at fewer points and feel cool.</li>
</ul>
<h2>Absorbing versus wicking</h2>
<p>You will often see synthetic fabrics described as "moisture wicking". Wicking means liquid sweat is drawn along the surface of the fibres and spread out so it can evaporate. Engineered sports fabrics do this well while you are moving. Ordinary polyester pyjamas are usually not engineered that way, and because the fibre itself absorbs almost nothing, sweat can stay on the skin and feel clammy. Natural fibres take up water vapour before it condenses on your skin, which is why many hot sleepers find them more comfortable.</p>
<h2>What the evidence can and cannot say</h2>
<p>Laboratory studies on sleepwear are few and usually small, so no fabric is a proven sleep treatment. What is well established is the physics: fibres differ in how they handle heat, air and moisture. That is exactly what our <a href="${articleLink(SEED_IDS.howTheStudyWorks)}">42-night study</a> looks at in real bedrooms, comparing polyester, cotton and linen on the same women.</p>
<p>You may also have read that fabrics carry an energy "frequency". That idea is popular, but it is not established science. In this library we stick to properties that can be measured.</p>
<p>Read more about <a href="${articleLink(SEED_IDS.linen)}">linen</a>, <a href="${articleLink(SEED_IDS.cotton)}">cotton</a>, <a href="${articleLink(SEED_IDS.wool)}">wool</a>, and <a href="${articleLink(SEED_IDS.silkAndPolyester)}">silk and polyester</a>.</p>
`,
  },
};
