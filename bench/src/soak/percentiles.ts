/** Latencies of one phase of a load run, and its outcomes. */
export class PhaseStats {
  readonly latencies: number[] = [];
  ok = 0;
  refused = 0;
  errors = 0;
  readonly errorSamples = new Map<string, number>();

  constructor(readonly name: string) {}

  add(ms: number, outcome: 'ok' | 'refused' | 'error', detail = ''): void {
    this.latencies.push(ms);
    this[outcome === 'error' ? 'errors' : outcome]++;
    if (outcome === 'error') this.errorSamples.set(detail, (this.errorSamples.get(detail) ?? 0) + 1);
  }

  percentile(p: number): number {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  }

  row(): string {
    const total = this.ok + this.refused + this.errors;
    const cells = [
      this.name.padEnd(26),
      String(total).padStart(7),
      ...[50, 95, 99].map((p) => `${this.percentile(p).toFixed(0)} ms`.padStart(9)),
      String(this.refused).padStart(8),
      `${this.errors} (${total ? ((100 * this.errors) / total).toFixed(2) : '0.00'}%)`.padStart(14),
    ];
    return `| ${cells.join(' | ')} |`;
  }

  static header(): string {
    return `| ${'phase'.padEnd(26)} | ${'calls'.padStart(7)} | ${'p50'.padStart(9)} | ${'p95'.padStart(9)} | ${'p99'.padStart(9)} | ${'429/503'.padStart(8)} | ${'other errors'.padStart(14)} |`;
  }
}
