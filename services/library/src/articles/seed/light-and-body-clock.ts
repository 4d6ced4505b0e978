import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const lightAndBodyClock: SeedArticleSource = {
  id: SEED_IDS.lightAndBodyClock,
  content: {
    category: 'Sleep tips',
    title: 'Light, Darkness and Your Body Clock',
    summary:
      'Light is the strongest signal your internal clock receives. Ten minutes of morning daylight and dimmer evenings can make it easier to feel sleepy at bedtime and alert in the morning.',
    imagePath: image('light-circadian.svg'),
    tags: ['light', 'circadian rhythm', 'melatonin', 'morning light', 'screens'],
    bodyHtml: `
<p>Inside your brain, a small cluster of cells called the suprachiasmatic nucleus acts as a master clock. It runs on a cycle of roughly 24 hours and coordinates when you feel sleepy, when your body temperature falls, when hormones such as melatonin and cortisol rise, and much more. Left to itself, the clock drifts a little each day. Light is what keeps it on time.</p>
<p>Special light-sensitive cells in the eye, different from the ones you see with, report how bright it is to the clock. They respond most to bright, blue-rich light such as daylight.</p>
<h2>Morning: let the light in</h2>
<p>Light in the first hours after waking moves your clock earlier and helps you feel alert. It also makes it easier to feel sleepy at a sensible hour that evening. Outdoor light is far brighter than indoor lighting, even on a cloudy day: often thousands of lux outside compared with a few hundred indoors. That is why the study's daily routine asks for <strong>10 minutes of morning light</strong>:</p>
<ul>
  <li>step outside for a short walk, or drink your morning tea by an open door or window;</li>
  <li>do it soon after you get up, and at about the same time each day;</li>
  <li>never look directly at the sun: the daylight all around you is what counts.</li>
</ul>
<h2>Evening: let it fade</h2>
<p>Bright light in the evening pushes the clock later and holds back melatonin, the hormone that signals night to the body. The study's routine asks for <strong>less evening light</strong>:</p>
<ul>
  <li>in the last hour or two before bed, switch off overhead lights and use low, warm-coloured lamps;</li>
  <li>turn screen brightness down and use the night setting; what you do on a screen, like work e-mail or the news, can keep you awake as much as the light does;</li>
  <li>make the bedroom dark: blackout curtains or an eye mask help, especially in summer;</li>
  <li>if you get up in the night, use a dim, warm night light instead of the main light.</li>
</ul>
<h2>Consistency is the point</h2>
<p>The clock responds to patterns. Light at similar times every day, together with a regular bedtime and wake time, gives it the clearest signal. See <a href="${articleLink(SEED_IDS.dailyRoutine)}">The Study's Daily Routine, Explained</a> for how light fits with the other parts of the routine.</p>
`,
  },
};
