import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const breathing: SeedArticleSource = {
  id: SEED_IDS.breathing,
  content: {
    category: 'Sleep tips',
    title: 'A Two-Minute Breathing Exercise for Bedtime',
    summary:
      'Slow breathing with a longer out-breath is a simple way to shift from the busyness of the day towards rest. A step-by-step guide to the exercise in the study routine.',
    imagePath: image('breathing.svg'),
    tags: ['breathing', 'relaxation', 'wind-down', 'HRV', 'study protocol'],
    bodyHtml: `
<p>Part of your nervous system prepares you for action, and part of it settles you for rest and digestion. Breathing is one of the few ways you can directly influence that balance. Slow breathing, especially with an out-breath longer than the in-breath, tends to slow the heart and increase the beat-to-beat variation measured as heart rate variability (HRV). Many people find it calms a busy mind.</p>
<p>The evidence that breathing exercises on their own improve sleep is modest, but they are safe, free and take two minutes, which is why the study routine includes one every night.</p>
<h2>The exercise</h2>
<ol>
  <li><strong>Settle in.</strong> Lie on your back or side in bed with the lights low. Rest one hand on your belly if that helps you notice the breath.</li>
  <li><strong>Breathe in through your nose</strong> for a slow count of four, letting your belly rise rather than your shoulders.</li>
  <li><strong>Breathe out gently</strong> through your nose or softly pursed lips for a count of six.</li>
  <li><strong>Repeat</strong> for about two minutes. That is around 12 breaths at this pace, or roughly six breaths a minute.</li>
  <li><strong>Let go.</strong> When you finish, let your breathing return to its own rhythm and let your attention rest on how heavy your body feels on the mattress.</li>
</ol>
<h2>Tips</h2>
<ul>
  <li>The counts are a guide. If four and six feel too long, try three and five; the longer out-breath matters more than the exact numbers.</li>
  <li>Keep it gentle. Do not force deep breaths. If you feel light-headed, stop and breathe normally.</li>
  <li>Thoughts will wander. Notice it kindly and return to counting.</li>
  <li>Use the same exercise if you wake in the night or during a <a href="${articleLink(SEED_IDS.nightSweats)}">hot flash</a>.</li>
</ul>
<h2>Why the same exercise every night?</h2>
<p>In the study, consistency matters more than technique. Doing the same short routine each night makes your evenings more alike, so differences between phases are more likely to come from the fabric. Over a few weeks it also becomes a cue: your body learns that this breathing means sleep is near.</p>
<p>If you have a heart or lung condition, or breathing exercises make you anxious, ask your clinician which approach suits you.</p>
`,
  },
};
