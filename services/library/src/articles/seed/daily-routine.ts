import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const dailyRoutine: SeedArticleSource = {
  id: SEED_IDS.dailyRoutine,
  content: {
    category: 'Sleep tips',
    title: "The Study's Daily Routine, Explained",
    summary:
      'Bedtime at 10:00 PM, dinner before 6:00 PM, one coffee at 1:00 PM and a few other small habits. Why the study asks for each one, and what to do when life gets in the way.',
    imagePath: image('daily-routine.svg'),
    tags: ['study protocol', 'routine', 'caffeine', 'alcohol', 'bedtime'],
    bodyHtml: `
<p>The study compares your sleep in different fabrics. Sleep is easily nudged by many other things: a late dinner, an extra espresso, a glass of wine, a bright evening. The daily routine keeps those things as similar as possible from night to night, so that the fabric stands out. Each habit is also a sound sleep habit in its own right.</p>
<h2>The routine</h2>
<ul>
  <li><strong>Bedtime at 10:00 PM.</strong> A regular bedtime (and wake time) keeps your body clock steady and makes nights comparable.</li>
  <li><strong>A 2-minute breathing exercise</strong> in bed, lights low. See <a href="${articleLink(SEED_IDS.breathing)}">A Two-Minute Breathing Exercise for Bedtime</a>.</li>
  <li><strong>Dinner before 6:00 PM.</strong> Digesting a large meal raises your heart rate and body temperature for hours, which a ring will pick up as a higher resting heart rate.</li>
  <li><strong>One coffee, at 1:00 PM.</strong> Caffeine blocks the chemical signal of sleepiness and lingers in the body for many hours; a single cup at a fixed time keeps its effect on your night similar each day. If you do not drink coffee, there is no need to start.</li>
  <li><strong>At most 100 ml of red wine.</strong> This is a limit, not a recommendation: no alcohol at all is also fine. Alcohol can make you drowsy, but it reduces REM sleep early in the night, fragments the second half and can set off night sweats.</li>
  <li><strong>Less evening light,</strong> and <strong>10 minutes of morning light.</strong> See <a href="${articleLink(SEED_IDS.lightAndBodyClock)}">Light, Darkness and Your Body Clock</a>.</li>
  <li><strong>Room temperature of 21–23 °C</strong> and the same bed setup every night: a cotton sheet, a duvet insert and a cover. See <a href="${articleLink(SEED_IDS.bedroomTemperature)}">Your Bedroom at 21–23 °C</a>.</li>
</ul>
<h2>When a day does not go to plan</h2>
<p>A dinner with friends, a late train, a sleepless night before a big day: real life happens, and one different day does not spoil the study. What helps most is honesty. Log the night as usual and write what was different in the comments, for example "dinner at 8 PM" or "two glasses of wine". Notes like these let the analysis treat those nights fairly.</p>
<h2>Making it stick</h2>
<ul>
  <li>Set two reminders: one in the early evening to start dimming lights, and one at about 9:30 PM to begin winding down.</li>
  <li>Keep your phone charging outside the bedroom, or at least out of reach.</li>
  <li>Pair new habits with existing ones: morning light with your first drink of the day, breathing with switching off the lamp.</li>
</ul>
<p>If anything in the routine is not right for your health, for example because of a medical condition, medication timing or shift work, follow your clinician's advice first and mention it in your log.</p>
`,
  },
};
