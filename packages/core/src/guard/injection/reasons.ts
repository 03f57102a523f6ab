/**
 * The short reason a refusal names: how the instruction was hidden, or else the kind of behaviour
 * that weighed most in the score. Never any of the text itself.
 */
import { KINDS, STRUCTURAL_NAMES, type Features } from './features.ts';
import type { FittedModel } from './fit.ts';

const BY_VIEW: Readonly<Record<string, string>> = {
  obfuscated: 'obfuscated instruction',
  hidden: 'hidden instruction',
  encoded: 'encoded instruction',
};

/** Which reason each behaviour signal speaks for. */
const REASON_OF_SIGNAL: Readonly<Record<string, string>> = {
  override: 'instruction override',
  ruleChange: 'instruction override',
  persona: 'role change',
  malware: 'command execution directive',
  decodeAndFollow: 'encoded instruction',
  chatToken: 'role change',
  fakeTag: 'role change',
  roleLine: 'role change',
  promptHeader: 'role change',
  contextClose: 'role change',
  promptLeak: 'system prompt exfiltration',
  sendData: 'data exfiltration',
  sendOut: 'data exfiltration',
  urlPlaceholder: 'data exfiltration',
  imageQuery: 'data exfiltration',
  fillIn: 'data exfiltration',
  harm: 'command execution directive',
  toolCall: 'tool call directive',
  queuedAction: 'tool call directive',
  trigger: 'triggered instruction',
  future: 'triggered instruction',
  tellUser: 'triggered instruction',
  recommend: 'triggered instruction',
  plantedAnswer: 'triggered instruction',
  skipCheck: 'instruction to the agent',
  secrecy: 'instruction to the agent',
  persist: 'persistence request',
  authority: 'authority claim',
  aiObliged: 'authority claim',
};
const DEFAULT_REASON = 'instruction to the agent';
const ROLE_CHANGE = 'role change';
/** A fake turn (template tokens, a prompt header, a closed context) is how the text was planted, as a view is. */
const FAKE_TURN: ReadonlySet<number> = new Set(['chatToken', 'promptHeader', 'contextClose'].map((name) => STRUCTURAL_NAMES.indexOf(name)));
const TRIGGERED = 'triggered instruction';

export function reasonFor(view: string, features: Features | undefined, model: FittedModel): string {
  const byView = BY_VIEW[view];
  if (byView !== undefined) return byView;
  if (features === undefined) return DEFAULT_REASON;
  if (features.indexes.some((index) => FAKE_TURN.has(index))) return ROLE_CHANGE;
  const totals = new Map<string, number>();
  const add = (reason: string, contribution: number) => totals.set(reason, (totals.get(reason) ?? 0) + contribution);
  const names = [...features.indexes].map((index) => STRUCTURAL_NAMES[index]?.replace('addressed+', ''));
  for (let k = 0; k < features.indexes.length; k += 1) {
    const index = features.indexes[k] ?? 0;
    const name = names[k];
    if (name === undefined) continue;
    const contribution = (model.weights[index] ?? 0) * (features.values[k] ?? 0);
    const reason = REASON_OF_SIGNAL[name];
    if (reason !== undefined) {
      add(reason, contribution);
      continue;
    }
    // A kind's weight speaks for the behaviours of that kind the text holds, in equal shares.
    const kind = KINDS[name.replace('kind:', '')];
    if (!name.startsWith('kind:') || kind === undefined) continue;
    const reasons = kind.filter((signal) => names.includes(signal)).flatMap((signal) => REASON_OF_SIGNAL[signal] ?? []);
    for (const shared of reasons) add(shared, contribution / reasons.length);
  }
  // A trigger says when, and the general reason only that the reader is directed: each names the
  // refusal only when no more telling behaviour weighs.
  const weighing = [...totals].filter(([, total]) => total > 0).sort((a, b) => b[1] - a[1]).map(([reason]) => reason);
  return weighing.find((reason) => reason !== TRIGGERED && reason !== DEFAULT_REASON) ?? weighing[0] ?? DEFAULT_REASON;
}
