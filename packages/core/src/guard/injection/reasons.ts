/**
 * The short reason a refusal names: how the instruction was hidden, or else the kind of behaviour
 * that weighed most in the score. Never any of the text itself.
 */
import { STRUCTURAL_NAMES, type Features } from './features.ts';
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
  for (let k = 0; k < features.indexes.length; k += 1) {
    const index = features.indexes[k] ?? 0;
    const name = STRUCTURAL_NAMES[index];
    if (name === undefined) continue;
    const reason = REASON_OF_SIGNAL[name.replace('addressed+', '')];
    if (reason === undefined) continue;
    const contribution = (model.weights[index] ?? 0) * (features.values[k] ?? 0);
    totals.set(reason, (totals.get(reason) ?? 0) + contribution);
  }
  // A trigger says when, not what: it names the refusal only when nothing the text directs weighs.
  let best = DEFAULT_REASON;
  let bestTotal = 0;
  for (const [reason, total] of totals) {
    if (reason !== TRIGGERED && total > bestTotal) {
      best = reason;
      bestTotal = total;
    }
  }
  return bestTotal > 0 || (totals.get(TRIGGERED) ?? 0) <= 0 ? best : TRIGGERED;
}
