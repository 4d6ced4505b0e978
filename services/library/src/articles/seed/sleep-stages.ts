import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const sleepStages: SeedArticleSource = {
  id: SEED_IDS.sleepStages,
  content: {
    category: 'Research Studies',
    title: "Your Ring's Sleep Stages: REM and Deep Sleep",
    summary:
      'What REM and deep sleep are, how much of each is typical, how a ring estimates them without measuring brain waves, and how to read the numbers without worrying about a single night.',
    imagePath: image('sleep-stages.svg'),
    tags: ['REM sleep', 'deep sleep', 'sleep stages', 'sleep cycles', 'ring metrics'],
    bodyHtml: `
<p>Sleep is not one steady state. Through the night you pass through cycles of roughly 90 minutes, each moving from light sleep into deeper sleep and then into REM sleep. Most people have four to six of these cycles a night. The mix changes as the night goes on: deep sleep is concentrated in the first half, and REM periods grow longer towards morning.</p>
<h2>Light sleep</h2>
<p>Light sleep makes up the largest share of the night, often around half. It is not "wasted" sleep: it plays a part in memory and in the body's recovery, and it is the natural bridge between the other stages.</p>
<h2>Deep sleep</h2>
<p>Deep sleep, also called slow-wave sleep, is the hardest stage to wake from. It is linked with physical recovery, the release of growth hormone, the immune system and the consolidation of some kinds of memory. In many adults it makes up something like 10–20% of the night, and it naturally declines with age. Alcohol, a late heavy meal or a warm bedroom can cut into it, and night sweats can interrupt it.</p>
<h2>REM sleep</h2>
<p>REM (rapid eye movement) sleep is when most vivid dreaming happens. Your brain is very active while most muscles are relaxed. REM is thought to help with emotional processing and learning. In adults it is typically around a fifth to a quarter of total sleep. Because REM dominates the early morning, a short night or an early alarm cuts into it most. Alcohol suppresses REM in the first part of the night.</p>
<h2>How a ring knows, and how well</h2>
<p>Sleep stages are defined by brain waves, measured in a sleep laboratory with electrodes on the scalp (polysomnography). A ring cannot see brain waves. It estimates stages from your movement, heart rate, heart rate variability and skin temperature, using models trained against laboratory recordings. Rings are good at telling sleep from wake, and reasonably good at the overall pattern of a night, but the minutes in each stage can be off by a fair margin on any single night.</p>
<h2>Reading your numbers</h2>
<ul>
  <li><strong>Look at averages and trends,</strong> not single nights. One night with little deep sleep is normal variation.</li>
  <li><strong>Compare with yourself,</strong> not with a friend or a chart. Your typical values are your reference.</li>
  <li><strong>Log them as shown.</strong> The sleep log takes durations like <em>1h25m</em> or <em>48m</em>.</li>
</ul>
<p>In the study, small differences in average REM or deep sleep between the polyester and linen phases are exactly what the paired analysis looks for. See <a href="${articleLink(SEED_IDS.howTheStudyWorks)}">How the 42-Night Fabric Study Works</a>.</p>
`,
  },
};
