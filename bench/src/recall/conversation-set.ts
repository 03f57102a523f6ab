import { randomFor, type Random } from '../random.ts';
import { activities, smallTalk, wishes } from './conversation-activities.ts';
import type { LabelledSet } from './labelled-set.ts';

const names = ['Maria', 'John', 'Aisha', 'Tom', 'Yuki', 'Pedro', 'Sofia', 'Liam', 'Noor', 'Ethan', 'Chloe', 'Ravi', 'Emma', 'Kofi', 'Hana', 'Lucas', 'Zara', 'Max', 'Ivy', 'Sam'];
const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const whens = ['yesterday', 'last weekend', 'on Saturday', 'this morning', 'last week', 'a few days ago'];
const feelings = ['and it was so relaxing', 'and I loved every minute', 'which was harder than I thought', 'and it made my day', 'it was a big step for me', 'and I am still smiling'];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

/**
 * Long chats of two people, one record per turn (source_id = the turn's id, one workspace per
 * conversation), and questions about who did what when. Each activity a speaker tells of gets a
 * question of one kind: who did it, when they did it, or when they did it in other words.
 */
export function generateConversationSet(conversations = 10, sessions = 20, turnsPerSession = 22): LabelledSet {
  const records: LabelledSet['records'] = [];
  const questions: LabelledSet['questions'] = [];
  const kinds = ['who', 'when', 'para'] as const;
  /** The turns that tell of each activity, by workspace and activity; and each question's activity. */
  const saidAt = new Map<string, string[]>();
  const activityOf: string[] = [];
  for (let c = 0; c < conversations; c++) {
    const random = randomFor('conversation', c);
    const a = names[(2 * c) % names.length] ?? 'A';
    const b = names[(2 * c + 1) % names.length] ?? 'B';
    const workspace = `chat-${c}`;
    const done = new Set<string>();
    for (let s = 0; s < sessions; s++) {
      const date = `${1 + Math.floor(random() * 28)} ${months[s % 12]} 2023`;
      for (let t = 0; t < turnsPerSession; t++) {
        const speaker = t % 2 === 0 ? a : b;
        const key = `c${c}-s${s}-t${t}`;
        const roll = random();
        let utterance: string;
        if (roll < 0.18) {
          const index = Math.floor(random() * activities.length);
          const activity = activities[index];
          if (!activity || done.has(`${speaker}:${index}`)) {
            utterance = pick(random, smallTalk);
          } else {
            done.add(`${speaker}:${index}`);
            saidAt.set(`${workspace}:${index}`, [...(saidAt.get(`${workspace}:${index}`) ?? []), key]);
            activityOf.push(`${workspace}:${index}`);
            utterance = `${activity.said} ${pick(random, whens)}, ${pick(random, feelings)}.`;
            const kind = kinds[questions.length % 3] ?? 'who';
            const text =
              kind === 'who'
                ? `Who ${activity.past}?`
                : kind === 'when'
                  ? `When did ${speaker} ${activity.ask}?`
                  : `When did ${speaker} ${activity.para}?`;
            questions.push({ workspace, text, kind, answers: [key], half: index % 2 === 0 ? 'tuning' : 'held-out' });
          }
        } else if (roll < 0.3) {
          utterance = fillAsk(pick(random, wishes), pick(random, activities)?.ask ?? '');
        } else {
          utterance = pick(random, smallTalk);
        }
        records.push({ key, workspace, content: `[${date}] ${speaker}: ${utterance}`, sourceId: key });
      }
    }
  }
  // A "who" question whose activity both speakers did has both turns as answers.
  questions.forEach((question, i) => {
    if (question.kind === 'who') question.answers = saidAt.get(activityOf[i] ?? '') ?? question.answers;
  });
  return { name: 'conversation', records, questions };
}

function fillAsk(template: string, ask: string): string {
  return template.replace('{ask}', ask);
}
