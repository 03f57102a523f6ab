/**
 * A labelled set for recall: records (in the order they were written, oldest first) and questions
 * whose answers are record keys. Each question belongs to the tuning half or the held-out half.
 */
export interface LabelledSet {
  name: string;
  records: Array<{ key: string; workspace: string; content: string; sourceId?: string }>;
  questions: Array<{
    workspace: string;
    text: string;
    kind: string;
    answers: string[];
    half: 'tuning' | 'held-out';
  }>;
}
