import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const menopauseSleep: SeedArticleSource = {
  id: SEED_IDS.menopauseSleep,
  content: {
    category: 'Sleep tips',
    title: 'Sleep Hygiene Through the Menopause Transition',
    summary:
      'Sleep often changes in perimenopause and after. These everyday habits are the foundation of better nights, and here is when it is worth talking to a clinician about more.',
    imagePath: image('menopause-sleep.svg'),
    tags: ['menopause', 'perimenopause', 'sleep hygiene', 'insomnia', 'CBT-I'],
    bodyHtml: `
<p>Many women notice their sleep changing in their forties and fifties. Trouble sleeping is one of the most common complaints of the menopause transition. The reasons are usually several at once: hot flashes and night sweats, shifting hormones, mood and anxiety, needing the bathroom at night, aches, snoring, and the ordinary stresses of midlife.</p>
<p>Good habits will not fix every cause, but they make the rest easier to manage. Think of them as the ground you build on.</p>
<h2>Habits that help</h2>
<ul>
  <li><strong>Keep a steady wake-up time,</strong> even after a bad night and at weekends. A fixed morning is the strongest signal for your body clock, and it builds healthy sleep pressure for the next night.</li>
  <li><strong>Go to bed when you are sleepy,</strong> close to the same time each night. The study's routine uses 10:00 PM.</li>
  <li><strong>Give yourself a wind-down.</strong> Half an hour of quiet, dimly lit activity tells your body the day is over. A <a href="${articleLink(SEED_IDS.breathing)}">two-minute breathing exercise</a> is a simple place to start.</li>
  <li><strong>Keep the bed for sleep.</strong> If you have been awake for what feels like 20 minutes or so, get up, do something calm in low light, and go back when sleepy. Lying awake and frustrated teaches the brain that bed is a place for worrying.</li>
  <li><strong>Mind caffeine and alcohol.</strong> Caffeine stays in the body for many hours, so keep it to the early afternoon. Alcohol may help you drop off, but it fragments the second half of the night and can trigger flushes.</li>
  <li><strong>Eat earlier.</strong> A large meal close to bedtime can raise your heart rate and body temperature overnight.</li>
  <li><strong>Move in the daytime.</strong> Regular physical activity is linked with better sleep. Finish vigorous exercise a few hours before bed if it leaves you wired.</li>
  <li><strong>Get morning light and keep evenings dim.</strong> See <a href="${articleLink(SEED_IDS.lightAndBodyClock)}">Light, Darkness and Your Body Clock</a>.</li>
  <li><strong>Make the bedroom cool, dark and quiet,</strong> with breathable bedding and sleepwear. See <a href="${articleLink(SEED_IDS.bedroomTemperature)}">Your Bedroom at 21–23 °C</a>.</li>
</ul>
<h2>When to talk to a clinician</h2>
<p>Please speak to your doctor, nurse or midwife if:</p>
<ul>
  <li>poor sleep lasts more than a few weeks and affects your days;</li>
  <li>you snore loudly, someone notices pauses in your breathing, or you wake gasping or with headaches (sleep apnoea becomes more common after menopause);</li>
  <li>you have an urge to move your legs in the evening that eases when you move;</li>
  <li>your mood is low or anxious most days;</li>
  <li>hot flashes or night sweats are hard to live with. Effective hormonal and non-hormonal treatments exist, and a clinician can help you weigh them.</li>
</ul>
<p>For long-standing insomnia, cognitive behavioural therapy for insomnia (CBT-I) is the recommended first treatment in clinical guidelines, and it works for women in midlife too. It is available in person and in guided digital programmes.</p>
`,
  },
};
