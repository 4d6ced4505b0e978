import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const cotton: SeedArticleSource = {
  id: SEED_IDS.cotton,
  content: {
    category: 'Fabric info',
    title: 'Cotton: The Familiar Baseline',
    summary:
      'Soft, absorbent and easy to care for, cotton is what most of us already sleep in. Learn how it handles heat and sweat, how weave changes the feel, and why the study uses it for the washout phase.',
    imagePath: image('cotton.svg'),
    tags: ['cotton', 'washout', 'weaves', 'natural fibres', 'sleepwear care'],
    bodyHtml: `
<p>Cotton grows as soft fibres around the seeds of the cotton plant. It is the most common natural fibre in clothing, and for many women it is simply what pyjamas are made of. That familiarity is exactly why the study uses it as a reference point.</p>
<h2>How cotton behaves at night</h2>
<ul>
  <li><strong>Breathable and soft.</strong> Cotton lets air and water vapour through and feels gentle on the skin, including skin that is sensitive or dry.</li>
  <li><strong>Absorbent.</strong> At ordinary room conditions cotton holds about 8% of its weight as moisture, far more than polyester. It takes up sweat readily.</li>
  <li><strong>Slow to dry.</strong> The other side of absorbency: once cotton is properly wet, as after a heavy night sweat, it dries slowly and can feel cold and heavy against the skin. Linen and wool tend to cope better with that situation.</li>
</ul>
<h2>Weave and knit change the feel</h2>
<p>The same fibre can make very different fabrics:</p>
<ul>
  <li><strong>Percale</strong> is a plain, tight weave with a crisp, cool, matte feel.</li>
  <li><strong>Sateen</strong> floats more threads on the surface, so it feels smoother and a little warmer, with a soft sheen.</li>
  <li><strong>Jersey</strong> is knitted like a T-shirt: stretchy, cosy and warmer again.</li>
  <li><strong>Muslin and voile</strong> are light, open weaves that suit hot nights.</li>
</ul>
<p>If you sleep hot, lighter and more open cotton fabrics are usually the more comfortable choice.</p>
<h2>Why cotton is the washout fabric</h2>
<p>In a study that compares two fabrics one after the other, the second phase should not be coloured by the first. Nights 15 to 28 are the washout phase: you wear 100% cotton, a neutral and familiar fabric, so that any effect of the polyester weeks, and of getting used to wearing a ring and keeping a log, has time to settle before the linen phase begins. Your cotton bed setup (sheet, duvet insert and cover) stays the same throughout for the same reason. Read more in <a href="${articleLink(SEED_IDS.howTheStudyWorks)}">How the 42-Night Fabric Study Works</a>.</p>
<h2>Caring for cotton</h2>
<p>Most cotton sleepwear washes well at 40 °C. Fabric softener makes cotton feel softer but reduces how much moisture it takes up; you may prefer to leave it out for sleepwear. Organic cotton behaves the same in bed as conventional cotton; the difference lies in how it is grown.</p>
`,
  },
};
