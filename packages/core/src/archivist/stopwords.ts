/**
 * A small English stopword list: function words that carry no topic. Kept short on purpose —
 * domain words such as "down", "up", "off" or "new" stay searchable.
 */
export const stopwords: ReadonlySet<string> = new Set([
  'a', 'about', 'after', 'again', 'all', 'also', 'am', 'an', 'and', 'any', 'are', 'as', 'at',
  'be', 'because', 'been', 'before', 'being', 'between', 'both', 'but', 'by',
  'can', 'could', 'did', 'do', 'does', 'doing', 'during',
  'each', 'either', 'else', 'etc', 'ever', 'every',
  'for', 'from', 'further', 'had', 'has', 'have', 'having', 'he', 'her', 'here', 'hers', 'him', 'his',
  'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just',
  'me', 'might', 'more', 'most', 'much', 'must', 'my', 'myself', 'never', 'no', 'nor', 'not',
  'of', 'on', 'once', 'onto', 'only', 'or', 'other', 'our', 'ours', 'ourselves', 'out', 'over', 'own',
  'per', 's', 'same', 'shall', 'she', 'should', 'so', 'some', 'such',
  't', 'than', 'that', 'the', 'their', 'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they',
  'this', 'those', 'through', 'to', 'too', 'under', 'until', 'upon', 'us', 'very', 'via',
  'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who', 'whom', 'whose', 'why',
  'will', 'with', 'within', 'would', 'yet', 'you', 'your', 'yours', 'yourself', 'yourselves',
  "ll", 're', 've', 'd', 'm',
]);

export function isStopword(word: string): boolean {
  return stopwords.has(word);
}
