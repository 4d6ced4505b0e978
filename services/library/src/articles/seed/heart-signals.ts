import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const heartSignals: SeedArticleSource = {
  id: SEED_IDS.heartSignals,
  content: {
    category: 'Research Studies',
    title: 'Resting Heart Rate, HRV and Blood Oxygen at Night',
    summary:
      'Your heart and breathing change through the night and respond to heat, food, alcohol and stress. What resting heart rate, heart rate variability and SpO2 tell you, and which patterns are worth discussing with a clinician.',
    imagePath: image('heart-signals.svg'),
    tags: ['resting heart rate', 'HRV', 'SpO2', 'blood oxygen', 'ring metrics', 'sleep apnoea'],
    bodyHtml: `
<p>While you sleep, your ring measures your pulse through the skin of your finger with small lights and sensors. From that signal it works out three numbers the study log asks for.</p>
<h2>Resting heart rate</h2>
<p>Your heart rate falls during sleep, usually reaching its lowest point in the middle of the night. The ring reports an average and a lowest value in beats per minute (bpm). What is normal varies a lot between people; fitness, age, medicines and genetics all play a part.</p>
<p>Night-to-night changes are more telling than the number itself. Alcohol, a late or heavy meal, a warm bedroom, a hot flash, stress or an oncoming cold can all keep your heart rate higher than usual. If your lowest heart rate comes late, close to waking, your body may have been busy digesting or cooling down for much of the night.</p>
<h2>Heart rate variability (HRV)</h2>
<p>Your heart does not beat like a metronome: the time between beats varies slightly from one beat to the next. That variation is HRV, usually shown in milliseconds (ms). It reflects how your nervous system balances "rest and digest" against "ready for action". Higher HRV for you generally goes with being rested and recovered; lower HRV can follow stress, poor sleep, illness, alcohol or hard training.</p>
<p>HRV is very individual and falls with age, so comparing your number with anyone else's means little. Compare it with your own typical range, over several nights.</p>
<h2>Blood oxygen (SpO2)</h2>
<p>SpO2 is the percentage of your blood's haemoglobin that is carrying oxygen. In healthy people it is usually around 95–100% while awake and may dip a little during sleep. A ring's SpO2 reading is an estimate and less precise than a medical pulse oximeter, especially if the ring is loose or your hands are cold.</p>
<h2>When to talk to a clinician</h2>
<p>A ring is not a diagnostic device, and one odd reading is rarely meaningful. Please speak to a doctor if you see a pattern such as:</p>
<ul>
  <li>frequent dips in blood oxygen, especially with loud snoring, pauses in breathing noticed by a partner, waking up gasping, morning headaches or heavy daytime sleepiness. Sleep apnoea becomes more common after menopause and is often missed in women;</li>
  <li>a resting heart rate that is unusually high or low for you over many nights, or palpitations, dizziness or chest discomfort;</li>
  <li>feeling unwell alongside any of these numbers.</li>
</ul>
<p>Seek urgent care for chest pain, severe breathlessness or fainting. Your ring's numbers never replace how you feel.</p>
<p>For the sleep summary numbers, read <a href="${articleLink(SEED_IDS.sleepScore)}">Sleep Score, Efficiency and Time to Fall Asleep</a>.</p>
`,
  },
};
