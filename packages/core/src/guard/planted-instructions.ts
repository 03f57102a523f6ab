/**
 * Decides whether a memory reads as an attempt to instruct the agent that will later read it: the
 * fitted model of injection/ (what the text does, read as written, de-obfuscated, hidden and
 * decoded), and where a model judge is configured, the judge for scores in the uncertain band.
 */
import { isUncertain, type InjectionJudge } from './injection/model-judge.ts';
import { judgeInjection, REFUSE_AT } from './injection/verdict.ts';

export interface PlantedInstruction {
  /** A short phrase for the person, e.g. "role change"; never the offending text. */
  readonly reason: string;
}

const JUDGED_REASON = 'instruction to the agent';

export function detectPlantedInstruction(text: string): PlantedInstruction | null {
  const verdict = judgeInjection(text);
  return verdict.score >= REFUSE_AT ? { reason: verdict.reason } : null;
}

/** The built-in verdict, overruled by the judge in the uncertain band when it gives an answer. */
export async function judgePlantedInstruction(
  text: string,
  judge: InjectionJudge | undefined,
): Promise<PlantedInstruction | null> {
  const verdict = judgeInjection(text);
  const builtIn = verdict.score >= REFUSE_AT;
  if (judge === undefined || !isUncertain(verdict.score)) return builtIn ? { reason: verdict.reason } : null;
  const planted = await judge.judge(text);
  if (planted === null) return builtIn ? { reason: verdict.reason } : null;
  return planted ? { reason: builtIn ? verdict.reason : JUDGED_REASON } : null;
}
