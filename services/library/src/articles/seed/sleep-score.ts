import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const sleepScore: SeedArticleSource = {
  id: SEED_IDS.sleepScore,
  content: {
    category: 'Research Studies',
    title: 'Sleep Score, Efficiency and Time to Fall Asleep',
    summary:
      'Your ring condenses a night into a handful of numbers. What the sleep score, total sleep, sleep efficiency and sleep latency mean, what typical values look like, and how to enter them in your log.',
    imagePath: image('sleep-score.svg'),
    tags: ['sleep score', 'sleep efficiency', 'sleep latency', 'total sleep', 'ring metrics'],
    bodyHtml: `
<p>Each morning your ring's app shows a summary of the night. These are the numbers the study's sleep log asks for first. Here is what each one means.</p>
<h2>Sleep score (0–100)</h2>
<p>The sleep score is the ring maker's one-number summary of your night. It combines several ingredients, typically total sleep, efficiency, how restful the night was, REM and deep sleep, how long you took to fall asleep, and how your timing compares with your usual pattern. Every brand uses its own formula, so a score is only comparable with your own scores from the same ring. It is most useful as a trend across a phase.</p>
<h2>Total sleep and time in bed</h2>
<p><strong>Time in bed</strong> runs from when you lie down to sleep until you get up. <strong>Total sleep</strong> is the part of that time you were actually asleep, adding up light, deep and REM sleep. Many adults need somewhere around seven to nine hours of sleep, but needs vary from person to person.</p>
<h2>Sleep efficiency</h2>
<p>Sleep efficiency is total sleep divided by time in bed, as a percentage. Seven hours of sleep in eight hours in bed is about 88%. Values of around 85% or more are generally considered good. Efficiency falls when it takes you a long time to fall asleep or you lie awake in the night, which is common with night sweats.</p>
<h2>Time to fall asleep (sleep latency)</h2>
<p>Latency is how long it takes from settling down to falling asleep. Somewhere around 10 to 20 minutes is typical. Regularly taking more than half an hour can be a sign of going to bed before you are sleepy, of stress, or of insomnia. Falling asleep within a couple of minutes every night can mean you are short of sleep.</p>
<h2>Entering them in your log</h2>
<ul>
  <li>Type durations the way the app shows them: <em>7h32m</em>, <em>1h5m</em> or <em>15m</em>. They are turned into minutes for you.</li>
  <li>Sleep score and efficiency are numbers from 0 to 100; efficiency may have one decimal place.</li>
  <li>If a value is missing, leave it empty rather than guessing.</li>
</ul>
<h2>Do not chase the number</h2>
<p>Trying hard to get a "perfect" score can itself make sleep worse: effort and worry are the opposite of what sleep needs. Look at your numbers once in the morning, log them, and let the study's averages do the work. If you feel rested, that matters as much as any score. If you feel unrefreshed most mornings despite enough time in bed, talk to a clinician.</p>
<p>For the heart and breathing numbers, read <a href="${articleLink(SEED_IDS.heartSignals)}">Resting Heart Rate, HRV and Blood Oxygen at Night</a>.</p>
`,
  },
};
