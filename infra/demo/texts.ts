/**
 * The words of the demo cohort: names, night notes, journal reflections and community
 * threads. Written for the demo; no real person's data.
 */

export const FIRST_NAMES = [
  'Maria',
  'Ana',
  'Claire',
  'Helen',
  'Sofia',
  'Ines',
  'Grace',
  'Ruth',
  'Nadia',
  'Elena',
  'Joanne',
  'Priya',
  'Fatima',
  'Louise',
  'Karen',
  'Mei',
  'Aisha',
  'Beatriz',
  'Sandra',
  'Monique',
  'Julia',
  'Theresa',
  'Amara',
  'Linda',
  'Hannah',
  'Yuki',
  'Carmen',
  'Deborah',
  'Ingrid',
  'Leila',
  'Patricia',
  'Rosa',
  'Sarah',
  'Catherine',
  'Olga',
  'Naomi',
  'Isabel',
  'Margaret',
  'Zainab',
  'Emma',
] as const;

export const LAST_NAMES = [
  'Okafor',
  'Silva',
  'Martin',
  'Novak',
  'Rossi',
  'Garcia',
  'Kowalski',
  'Byrne',
  'Haddad',
  'Lindqvist',
  'Moreau',
  'Patel',
  'Nguyen',
  'Schmidt',
  'Walker',
  'Chen',
  'Mensah',
  'Costa',
  'Fischer',
  'Dubois',
  'Hughes',
  'Tanaka',
  'Alvarez',
  'Brennan',
  'Ivanova',
  'Kaur',
  'Larsen',
  "O'Connor",
  'Petrov',
  'Reyes',
] as const;

/** A note on a night, by the fabric she wore. */
export const NIGHT_NOTES = {
  polyester: [
    'Woke up hot around 3am, had to kick the covers off.',
    'Sticky and warm after midnight.',
    'Two hot flashes, the second one woke me properly.',
    'Pyjamas felt clammy by the morning.',
    'Restless, kept turning over.',
  ],
  cotton: [
    'Fairly normal night.',
    'Cotton feels familiar, slept OK.',
    'One hot flash but got back to sleep quickly.',
    'Woke once for the bathroom.',
  ],
  linen: [
    'Felt cooler tonight, slept through.',
    'Linen is a bit scratchy but I stayed cool.',
    'Only one short wake-up, much better.',
    'Woke feeling rested for once.',
    'Hot flash around 4am but it passed fast.',
  ],
  any: [
    'Late dinner, took a while to settle.',
    'Stressful day at work, mind was racing.',
    'Had a glass of wine with friends.',
    'Neighbours were loud until 11.',
    'Forgot to charge the ring, it died at 5am.',
  ],
} as const;

export const AFFIRMATIONS = [
  'I am allowed to rest.',
  'My body is changing and I am learning to listen to it.',
  'I can handle today one step at a time.',
  'I deserve a calm evening.',
  'I am patient with myself.',
  'Good sleep is something I make room for.',
  'I let go of what I cannot control.',
  'I am stronger than a bad night.',
];

export const GRATITUDE = [
  'A long walk with my sister.',
  'Cool air through the open window.',
  'My daughter called just to chat.',
  'A quiet coffee before everyone woke up.',
  'The first tomatoes from the garden.',
  'A colleague covered for me when I was exhausted.',
  'Finding the community here, it helps to know I am not alone.',
  'Sunshine at lunch.',
];

export const FORGIVENESS = [
  'Myself, for snapping at breakfast after a bad night.',
  'My partner for snoring, it is not his fault.',
  'Myself, for skipping the walk today.',
  'The driver who cut me off this morning.',
  'Myself, for forgetting to log last night.',
];

/** Community threads the demo participants start, and what they write in them. */
export const THREADS = [
  {
    name: 'Linen week one: anyone else feel cooler?',
    messages: [
      'Started linen three nights ago and I have woken up less. Anyone else?',
      'Same here, fewer night sweats so far.',
      'It creases like mad but I do not care if I sleep.',
      'Mine feels scratchy the first night, softer after a wash.',
      'My ring says my resting heart rate dropped a little. Could be chance though.',
      'I am still in washout, this makes me look forward to it.',
    ],
  },
  {
    name: 'Hot flashes at 3am',
    messages: [
      'Every night around 3am like clockwork. What helps you get back to sleep?',
      'A cold flannel on the bedside table.',
      'Breathing slowly, in for four, out for six.',
      'I keep a fan on low all night.',
      'Layers! Thin duvet plus a blanket I can throw off.',
      'Talk to your GP too, mine was helpful.',
    ],
  },
  {
    name: 'Tips for remembering to log every morning',
    messages: [
      'I keep missing mornings. How do you all remember?',
      'Phone alarm at 7:30 labelled "log sleep".',
      'I do it while the kettle boils.',
      'I log straight after I check the ring app.',
    ],
  },
  {
    name: 'Polyester phase is rough',
    messages: [
      'Day 9 of polyester and I feel like I am sleeping in a plastic bag.',
      'Hang in there, washout is coming!',
      'Same, my comfort ratings are all "uncomfortable" this week.',
      'Good to know it is not only me.',
    ],
  },
  {
    name: 'Washing linen: what works?',
    messages: [
      'Any tips for washing linen pyjamas without them shrinking?',
      'Cool wash, hang dry, no tumble dryer.',
      'They get softer with every wash.',
    ],
  },
  {
    name: 'Study finished!',
    messages: [
      'Just finished my 42 nights. Strange not to log tonight!',
      'Congratulations! What did you notice?',
      'Linen nights were my best, but the last week of polyester was awful.',
      'I will keep wearing linen, study or not.',
    ],
  },
  {
    name: 'Evening routines that help',
    messages: [
      'No screens after 9 has made a bigger difference than I expected.',
      'Magnesium and a warm shower for me.',
      'Reading fiction, nothing work related.',
    ],
  },
  {
    name: 'Room temperature: what is yours?',
    messages: [
      'The protocol says a cool room. Mine is about 18 degrees.',
      '17 here, with the window open a crack.',
      'We argue about it at home. He likes 21!',
    ],
  },
] as const;

export const WELCOME_MESSAGES = [
  'Hello everyone, just joined the sleep study!',
  'Hi all, starting polyester tonight.',
  'Glad to have found this place.',
  'Hello from a fellow night owl (not by choice).',
];
