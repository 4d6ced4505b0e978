import { articleLink, image, SEED_IDS, type SeedArticleSource } from './types.ts';

export const nightSweats: SeedArticleSource = {
  id: SEED_IDS.nightSweats,
  content: {
    category: 'Sleep tips',
    title: 'Hot Flashes and Night Sweats: Getting Through the Night',
    summary:
      'A sudden wave of heat, a damp pillow, then a chill. Practical ways to prepare your bed, your evening and yourself for night sweats, and when they are worth a conversation with a clinician.',
    imagePath: image('night-sweats.svg'),
    tags: ['hot flashes', 'night sweats', 'menopause', 'bedding', 'cooling'],
    bodyHtml: `
<p>A hot flash is a sudden feeling of intense heat, usually in the chest, neck and face, often with flushing, sweating and a racing heart, and sometimes followed by shivering as you cool down. When it happens at night it is called a night sweat, and it can wake you, soak your sleepwear and leave you too hot, then too cold, to settle again.</p>
<p>Hot flashes are very common in perimenopause and the years after the last period, and for many women they continue for several years. They are thought to come from the brain's temperature control becoming more sensitive as oestrogen levels change: a small rise in core temperature, which your body used to tolerate, now sets off a full cooling response.</p>
<h2>Prepare the bed</h2>
<ul>
  <li><strong>Layers you can shed.</strong> Light, breathable sleepwear and bedding in layers let you adjust without fully waking. If you share a bed, separate covers help you both.</li>
  <li><strong>Fabrics that handle moisture.</strong> Damp fabric against the skin is what turns a flush into a chill. Fibres that take up moisture and dry quickly, such as <a href="${articleLink(SEED_IDS.linen)}">linen</a>, are often more comfortable than polyester.</li>
  <li><strong>A night-sweat kit</strong> by the bed: a glass of cool water, a spare top, a small towel, and perhaps a fan you can reach.</li>
  <li><strong>A cool, airy room.</strong> See <a href="${articleLink(SEED_IDS.bedroomTemperature)}">Your Bedroom at 21–23 °C</a>.</li>
</ul>
<h2>Shape your evening</h2>
<ul>
  <li>Notice your own triggers. Common ones are alcohol, spicy food, hot drinks, caffeine, smoking and stress.</li>
  <li>A warm (not hot) shower an hour or two before bed helps your body shed heat afterwards.</li>
  <li>Keep the last hour calm; stress hormones can make flushes more likely.</li>
</ul>
<h2>During a flush</h2>
<p>Throw back the top layer, sip cool water and breathe slowly: in through the nose for about four counts, out for about six. Slow breathing will not stop the flush, but it can take the edge off the racing heart and make it easier to drift off again. Try not to check the clock.</p>
<h2>In the study</h2>
<p>Each morning the sleep log asks whether you had a heat wave and how many times heat woke you. Those notes matter: they let the study see whether night sweats changed between the polyester and linen phases.</p>
<h2>When to talk to a clinician</h2>
<p>If hot flashes disturb your sleep or your days, talk to a doctor or nurse. Effective treatments exist, both hormonal and non-hormonal, and cognitive behavioural therapy has good evidence for making flushes less bothersome. Night sweats can also have other causes, such as infections, some medicines or thyroid problems. See a clinician promptly if they are new and come with fever, weight loss you cannot explain, or feeling unwell.</p>
`,
  },
};
