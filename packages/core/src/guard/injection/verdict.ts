/**
 * The planted-instruction verdict: the fitted model's score of a record, read the ways a model
 * reading it later could: as written, with look-alikes and leet undone, its hidden parts, and its
 * encoded payloads. Long text is scored in overlapping windows (the highest counts, held to odds
 * that grow with the number of windows), so a planted sentence is not diluted by pages of ordinary
 * text; at most MAX_READ characters are read.
 */
import { decodePayloads } from '../decode-payloads.ts';
import { extractHiddenSegments, mayHide } from '../hidden-content.ts';
import { normalizeForGuard, plainView, revealText } from '../normalize.ts';
import { featuresOf, withoutShownText, type Features } from './features.ts';
import type { FittedModel } from './fit.ts';
import { committedModel, scoreWindow } from './model.ts';
import { reasonFor } from './reasons.ts';

/** The record limit: nothing past it is read. */
export const MAX_READ = 20_000;
const WINDOW = 600;
const OVERLAP = 150;
/** At or above this score a record is refused. */
export const REFUSE_AT = 0.6;

export interface InjectionVerdict {
  /** Probability-like score in [0, 1] that the text is a planted instruction. */
  readonly score: number;
  /** A short phrase for the person when the score refuses (else empty); never the offending text. */
  readonly reason: string;
}

type View = 'plain' | 'obfuscated' | 'hidden' | 'encoded';

/** The pieces of text to score, each named by how it was found. */
function viewsOf(text: string): Array<{ view: View; text: string }> {
  const capped = text.length > MAX_READ ? text.slice(0, MAX_READ) : text;
  const revealed = revealText(capped);
  const views: Array<{ view: View; text: string }> = [{ view: 'plain', text: capped }];
  const normalized = normalizeForGuard(capped);
  if (revealed !== capped || normalized.text !== plainView(capped)) {
    views.push({ view: 'obfuscated', text: normalized.text });
  }
  if (normalized.reversed !== null) views.push({ view: 'obfuscated', text: normalized.reversed });
  const hidden = mayHide(revealed) ? extractHiddenSegments(withoutShownText(revealed)) : [];
  if (normalized.smuggled !== '') hidden.push(normalized.smuggled);
  if (hidden.length > 0) views.push({ view: 'hidden', text: hidden.join('.\n') });
  const decoded = decodePayloads(revealed);
  if (decoded.length > 0) {
    const once = decoded.join('.\n');
    views.push({ view: 'encoded', text: once });
    const twice = decodePayloads(once);
    if (twice.length > 0) views.push({ view: 'encoded', text: twice.join('.\n') });
  }
  return views;
}

/** Views a person reading the record does not see. */
const isUnseen = (view: View): boolean => view === 'hidden';

function windowsOf(text: string): string[] {
  if (text.length <= WINDOW) return [text];
  const windows: string[] = [];
  for (let start = 0; start < text.length; start += WINDOW - OVERLAP) {
    windows.push(text.slice(start, start + WINDOW));
    if (start + WINDOW >= text.length) break;
  }
  return windows;
}

/** The windows of every view, as the model sees them; the fit uses the same. */
export function windowFeatures(text: string): Features[] {
  return viewsOf(text).flatMap((view) => windowsOf(view.text).map((window) => featuresOf(window, isUnseen(view.view))));
}

/** When several views refuse, the reason names the first of these: how the instruction was hidden. */
const VIEW_PRIORITY: readonly View[] = ['hidden', 'plain', 'obfuscated', 'encoded'];

export function judgeInjection(text: string, model: FittedModel = committedModel()): InjectionVerdict {
  if (text.trim() === '') return { score: 0, reason: '' };
  const best = new Map<View, { score: number; features: Features }>();
  let windows = 1;
  for (const view of viewsOf(text)) {
    const pieces = windowsOf(view.text);
    if (view.view === 'plain') windows = pieces.length;
    for (const window of pieces) {
      const scored = scoreWindow(model, window, isUnseen(view.view));
      if (scored.score > (best.get(view.view)?.score ?? -1)) best.set(view.view, scored);
    }
  }
  const top = Math.max(...[...best.values()].map((scored) => scored.score));
  const score = forWindows(top, windows);
  if (score < REFUSE_AT) return { score, reason: '' };
  const named = VIEW_PRIORITY.find((view) => (best.get(view)?.score ?? 0) >= REFUSE_AT) ?? 'plain';
  return { score, reason: reasonFor(named, best.get(named)?.features, model) };
}

/**
 * A record read in n windows has n chances to look like an attack where it is none: its highest
 * window is held to odds n times as high (ln n more in the logit). Where windows' scores have a
 * logistic tail, that keeps a long record's chance of a false refusal at a one-window record's
 * (decision 0068). A record of one window is read as it is.
 */
export function forWindows(score: number, windows: number): number {
  return windows <= 1 ? score : score / (score + windows * (1 - score));
}
