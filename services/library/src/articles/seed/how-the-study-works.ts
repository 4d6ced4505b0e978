import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const howTheStudyWorks: SeedArticleSource = {
  id: SEED_IDS.howTheStudyWorks,
  content: {
    category: 'Research Studies',
    title: 'How the 42-Night Fabric Study Works',
    summary:
      'Three phases of 14 nights: polyester, a cotton washout, then linen. What you do each night and morning, why the phases come in this order, and what the results can and cannot tell us.',
    imagePath: image('study-phases.svg'),
    tags: ['study protocol', 'phases', 'polyester', 'cotton', 'linen', 'washout'],
    bodyHtml: `
<p>The Sleepweave study asks a simple question: <em>does what you wear to bed change how you sleep?</em> To answer it, each participant sleeps in three different kinds of sleepwear over 42 nights, wears a sleep-tracking ring, and keeps a short log every morning.</p>
<h2>The three phases</h2>
<ol>
  <li><strong>Polyester, nights 1–14.</strong> Wear your 100% polyester pyjamas every night.</li>
  <li><strong>Washout, nights 15–28.</strong> Wear 100% cotton. This phase lets the effects of the first fabric, and of getting used to the ring and the routine, settle before the comparison fabric begins.</li>
  <li><strong>Linen, nights 29–42.</strong> Wear your 100% linen pyjamas every night.</li>
</ol>
<p>The app counts your days from the date you gave consent and shows your current phase on the sleep log. On the last night of each phase (days 14, 28 and 42) it tells you what comes next.</p>
<h2>What you do</h2>
<ul>
  <li><strong>Each evening:</strong> follow the <a href="${articleLink(SEED_IDS.dailyRoutine)}">daily routine</a>, keep the bedroom at 21–23 °C with the same cotton bedding, put on the phase's sleepwear and your ring.</li>
  <li><strong>Each morning:</strong> log the night. Copy the ring's numbers (sleep score, total sleep, efficiency, REM and deep sleep, time to fall asleep, resting heart rate, HRV and more), then add how it felt to you: sleep quality from 1 to 10, fabric comfort, morning mood, emotional calm, dream recall, whether heat woke you, and any notes.</li>
</ul>
<p>Leave a field empty if you do not know the value. An honest gap is far more useful than a guess.</p>
<h2>Why compare each woman with herself?</h2>
<p>Sleep differs enormously between people. Comparing one group in polyester with another group in linen would mostly measure those differences. Instead, each participant's linen nights are compared with her own polyester nights. These paired comparisons cancel out much of what makes us different and leave the change that came with the fabric. The research export summarises them as average differences and as an effect size (Cohen's d), a standard way to say how large a difference is relative to the normal night-to-night variation.</p>
<h2>Being honest about limits</h2>
<ul>
  <li>You know which fabric you are wearing, and expectations can influence how you rate your sleep. The ring's measurements are less affected by that.</li>
  <li>The order is fixed: linen always comes last, so season, habit and getting used to the study may play a part.</li>
  <li>Consumer rings estimate sleep; they are not medical devices.</li>
</ul>
<p>So the study can show whether sleep changed with the fabric for the women taking part; it cannot prove why. To read your own numbers, see <a href="${articleLink(SEED_IDS.sleepScore)}">Sleep Score, Efficiency and Time to Fall Asleep</a>.</p>
`,
  },
};
