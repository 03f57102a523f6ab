/**
 * What people in a long chat tell each other they did, and how a question asks about it: `past`
 * as the teller says it (first person), `ask` in the question's form, `para` in other words.
 * Written before any tuning; activities are split into halves by index.
 */
export interface Activity {
  said: string;
  past: string;
  ask: string;
  para: string;
}

export const activities: Activity[] = [
  { said: 'I went to a pottery class', past: 'went to a pottery class', ask: 'go to a pottery class', para: 'try making ceramics' },
  { said: 'I ran my first half marathon', past: 'ran a half marathon', ask: 'run a half marathon', para: 'finish a 21 km race' },
  { said: 'I adopted a puppy from the shelter', past: 'adopted a puppy', ask: 'adopt a puppy', para: 'bring home a young dog' },
  { said: 'I started learning Spanish online', past: 'started learning Spanish', ask: 'start learning Spanish', para: 'begin studying a new language' },
  { said: 'I painted a sunset over the lake', past: 'painted a sunset', ask: 'paint a sunset', para: 'make a picture of the evening sky' },
  { said: 'I volunteered at the food bank', past: 'volunteered at the food bank', ask: 'volunteer at the food bank', para: 'help out handing meals to people in need' },
  { said: 'I moved into a new apartment downtown', past: 'moved into a new apartment', ask: 'move into a new apartment', para: 'relocate to a different flat' },
  { said: 'I got promoted to team lead', past: 'got promoted to team lead', ask: 'get promoted', para: 'receive a higher position at work' },
  { said: 'I camped in the mountains with my cousins', past: 'camped in the mountains', ask: 'camp in the mountains', para: 'sleep in a tent outdoors' },
  { said: 'I baked a chocolate cake for my mom', past: 'baked a chocolate cake', ask: 'bake a chocolate cake', para: 'make a dessert for a parent' },
  { said: 'I joined a book club at the library', past: 'joined a book club', ask: 'join a book club', para: 'become part of a reading group' },
  { said: 'I visited my grandmother in Lisbon', past: 'visited a grandmother in Lisbon', ask: 'visit a grandmother', para: 'see a grandparent abroad' },
  { said: 'I played guitar at an open mic night', past: 'played guitar at an open mic', ask: 'play guitar at an open mic', para: 'perform music on stage' },
  { said: 'I finished reading a novel about space travel', past: 'finished a novel about space travel', ask: 'finish a novel', para: 'complete a book on astronauts' },
  { said: 'I planted tomatoes in the garden', past: 'planted tomatoes', ask: 'plant tomatoes', para: 'grow vegetables at home' },
  { said: 'I attended a support group meeting', past: 'attended a support group', ask: 'attend a support group', para: 'go to a community circle for help' },
  { said: 'I signed up for a photography workshop', past: 'signed up for a photography workshop', ask: 'sign up for a photography workshop', para: 'enroll in a camera course' },
  { said: 'I hiked to the waterfall trail', past: 'hiked to the waterfall', ask: 'hike to the waterfall', para: 'walk a path to the falls' },
  { said: 'I bought a used car', past: 'bought a used car', ask: 'buy a car', para: 'purchase a second-hand vehicle' },
  { said: 'I went to a concert of my favorite band', past: 'went to a concert', ask: 'go to a concert', para: 'see a live gig' },
  { said: 'I took my kids to the zoo', past: 'took the kids to the zoo', ask: 'take the kids to the zoo', para: 'bring the children to see animals' },
  { said: 'I gave a talk at a school career day', past: 'gave a talk at a school', ask: 'give a talk at a school', para: 'speak to students about jobs' },
  { said: 'I repaired an old bicycle', past: 'repaired an old bicycle', ask: 'repair a bicycle', para: 'fix up a bike' },
  { said: 'I celebrated my birthday with a picnic', past: 'celebrated a birthday with a picnic', ask: 'celebrate a birthday', para: 'have a party for turning a year older' },
  { said: 'I wrote a poem for the community newsletter', past: 'wrote a poem', ask: 'write a poem', para: 'compose some verses' },
  { said: 'I traveled to Japan for two weeks', past: 'traveled to Japan', ask: 'travel to Japan', para: 'take a trip to Tokyo and Kyoto' },
  { said: 'I learned to swim at the community pool', past: 'learned to swim', ask: 'learn to swim', para: 'take lessons in the water' },
  { said: 'I knitted a scarf for my sister', past: 'knitted a scarf', ask: 'knit a scarf', para: 'make a woolen gift for a sibling' },
  { said: 'I applied for a job at a design studio', past: 'applied for a job', ask: 'apply for a job', para: 'send a resume to an employer' },
  { said: 'I cooked dinner for my neighbors', past: 'cooked dinner for the neighbors', ask: 'cook dinner for the neighbors', para: 'host a meal for the people next door' },
  { said: 'I went to a yoga retreat', past: 'went to a yoga retreat', ask: 'go to a yoga retreat', para: 'spend a weekend stretching and meditating' },
  { said: 'I recorded a podcast episode with a friend', past: 'recorded a podcast', ask: 'record a podcast', para: 'make an audio show' },
  { said: 'I got a tattoo of a sunflower', past: 'got a sunflower tattoo', ask: 'get a tattoo', para: 'have ink done on the skin' },
  { said: 'I went skiing in the Alps', past: 'went skiing in the Alps', ask: 'go skiing', para: 'ride down snowy slopes' },
  { said: 'I fostered two kittens', past: 'fostered two kittens', ask: 'foster kittens', para: 'look after young cats for a while' },
  { said: 'I organized a charity run for the hospital', past: 'organized a charity run', ask: 'organize a charity run', para: 'set up a fundraising race' },
];

export const smallTalk: string[] = [
  'How was your week?',
  'That sounds amazing, tell me more!',
  'I am so happy for you.',
  'Work has been busy lately, nothing special.',
  'Haha, that is so you.',
  'We should catch up more often.',
  'Thanks for asking, I am doing well.',
  'Oh wow, I did not expect that.',
  'What are you up to this weekend?',
  'I have been feeling a bit tired but okay.',
  'That must have been hard.',
  'Good for you, really.',
];

/** What the other one says about an activity without having done it: the same words, no answer. */
export const wishes: string[] = ['I would love to {ask} someday.', 'Have you ever wanted to {ask}?', 'My friend said I should {ask}.'];
