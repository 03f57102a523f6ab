import { lintSource } from '@secretlint/core';
import { creator as preset } from '@secretlint/secretlint-rule-preset-recommend';
const cfg = { rules: [{ id: preset.meta.id, rule: preset, rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }] }] };
const r = await lintSource({ source: { filePath: '/m.txt', content: 'key AKIAQWERTYUIOPASDFGH', contentType: 'text', ext: '.txt' }, options: { config: cfg as any, noPhysicFilePath: true } });
console.log(r.messages.map(m => [m.ruleId, m.messageId, m.range]));
for (const len of [10, 200, 2048, 20000]) {
const big = ('Deploy notes: run pnpm build and then curl -X POST https://ci.example.com/deploy. ' ).repeat(500).slice(0,len);
for (let w=0; w<2; w++){
let t=performance.now(); const N=2000;
for (let i=0;i<N;i++) await lintSource({ source: { filePath: '/m.txt', content: big+i, contentType: 'text', ext: '.txt' }, options: { config: cfg as any, noPhysicFilePath: true } });
console.log(len, 'us per call', (performance.now()-t)*1000/N);
}}
