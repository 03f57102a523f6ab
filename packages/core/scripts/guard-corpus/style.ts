/** One style of corpus item: its name, label, language and the templates it is written from. */
export interface Style {
  readonly name: string;
  readonly label: 'attack' | 'legit';
  readonly lang: string;
  readonly templates: readonly string[];
  /** Whether items may be set inside ordinary memory text (a sentence before and/or after). */
  readonly embed?: boolean;
}
