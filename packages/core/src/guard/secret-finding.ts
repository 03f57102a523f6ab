/** A secret found in a text: the half-open range [start, end) and the kind named in the placeholder. */
export interface SecretFinding {
  readonly start: number;
  readonly end: number;
  readonly kind: string;
  /** Where the finding came from; when findings overlap, the maintained rule set wins a tie. */
  readonly source: 'secretlint' | 'specific' | 'generic';
}
