import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const bedroomTemperature: SeedArticleSource = {
  id: SEED_IDS.bedroomTemperature,
  content: {
    category: 'Sleep tips',
    title: 'Your Bedroom at 21–23 °C',
    summary:
      'The study asks you to keep your bedroom between 21 and 23 °C. Here is why a steady temperature matters, how your body cools down for sleep, and simple ways to hold the range through the seasons.',
    imagePath: image('bedroom-temperature.svg'),
    tags: ['bedroom temperature', 'thermoregulation', 'study protocol', 'humidity', 'ventilation'],
    bodyHtml: `
<p>Your body temperature follows a daily rhythm. In the evening your core temperature begins to fall, and the blood vessels in your hands and feet open up to let heat out. This cooling is part of what makes you sleepy, and your temperature stays low through the night before rising again towards morning. A bedroom that is too warm, or bedding that is too heavy, gets in the way of that cooling; a room that is too cold can wake you too.</p>
<h2>Why the study uses 21–23 °C</h2>
<p>The study compares your nights in different fabrics. If your bedroom were 18 °C in one phase and 25 °C in another, the change in temperature could easily be mistaken for an effect of the fabric. Keeping the room within the same band, together with the same cotton sheet, duvet insert and cover, means the sleepwear is the main thing that changes.</p>
<p>You may read elsewhere that a cooler room, around 16–19 °C, suits many sleepers. Both can be true: the study's range was chosen to be comfortable for most people in light sleepwear under a duvet and, above all, to be steady. If you have a night well outside the range, that is fine; just note it in the comments of your sleep log.</p>
<h2>Measure it properly</h2>
<ul>
  <li>Use a simple room thermometer, ideally one that also shows humidity.</li>
  <li>Place it near the bed at about mattress height, away from radiators, windows and direct sun.</li>
  <li>Check it at bedtime for the first few nights until you know how your room behaves.</li>
</ul>
<h2>Holding the range</h2>
<ul>
  <li><strong>In winter:</strong> turn the bedroom radiator down rather than off, close the door, and air the room briefly before bed instead of leaving a window open all night.</li>
  <li><strong>In summer:</strong> keep blinds or curtains closed during the day, open windows once it is cooler outside than in, and use a fan to move air across the room.</li>
  <li><strong>Humidity</strong> between roughly 40% and 60% is comfortable for most people; very dry air can irritate your throat, and very humid air makes sweat slow to evaporate.</li>
</ul>
<h2>A helpful habit</h2>
<p>A warm shower or bath an hour or two before bed can help you fall asleep: it draws blood to the skin, and the heat you then lose speeds up the evening drop in core temperature. If you are prone to <a href="${articleLink(SEED_IDS.nightSweats)}">night sweats</a>, keep it warm rather than hot and leave time to cool down.</p>
`,
  },
};
