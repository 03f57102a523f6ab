import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { repoRoot } from '@mmw/test-support';

// The Kubernetes manifests checked offline against the API's JSON schemas (pinned by the version of
// kubernetes-models), and the rules of the deployment they must keep.
const dir = join(repoRoot, 'infra', 'kubernetes');
const models = { Deployment, HorizontalPodAutoscaler, Job, PodDisruptionBudget, ConfigMap, Secret, Service };
type Manifest = { apiVersion: string; kind: string; metadata: { name: string }; spec?: Record<string, unknown> };

const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
const manifests: Manifest[] = kustomization.resources.flatMap((file) =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
    return doc.toJS() as Manifest;
  }),
);
const deployments = manifests.filter((m) => m.kind === 'Deployment') as unknown as Deployment[];

describe('infra/kubernetes', () => {
  it('lists every manifest of the folder in its kustomization', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it('has only objects of known kinds, each valid against the Kubernetes schema of its kind', () => {
    for (const manifest of manifests) {
      const Model = models[manifest.kind as keyof typeof models] as (new (data: unknown) => { validate(): void }) | undefined;
      if (Model === undefined) throw new Error(`unexpected kind ${manifest.kind}`);
      expect(() => new Model(manifest).validate(), `${manifest.kind}/${manifest.metadata.name}`).not.toThrow();
    }
  });

  it('probes readiness on /readyz and liveness on /healthz, requests resources, keeps config and secrets apart', () => {
    expect(deployments.map((d) => d.metadata?.name).sort()).toEqual(['mmw-dashboard', 'mmw-ingress', 'mmw-worker']);
    for (const deployment of deployments) {
      const [container] = deployment.spec?.template.spec?.containers ?? [];
      expect(container?.resources?.requests?.cpu).toBeDefined();
      expect(container?.resources?.requests?.memory).toBeDefined();
      expect(container?.envFrom?.map((from) => from.configMapRef?.name ?? from.secretRef?.name)).toEqual([
        'mmw-config',
        'mmw-secrets',
      ]);
      if (deployment.metadata?.name === 'mmw-worker') continue;
      expect(container?.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(container?.livenessProbe?.httpGet?.path).toBe('/healthz');
    }
    const config = manifests.find((m) => m.kind === 'ConfigMap') as unknown as ConfigMap;
    expect(Object.keys(config.data ?? {}).filter((k) => /SECRET|PASSWORD|DATABASE_URL/.test(k))).toEqual([]);
  });

  it('has a migration Job, an autoscaler for the ingress and a disruption budget for each Deployment', () => {
    expect(manifests.filter((m) => m.kind === 'Job').map((m) => m.metadata.name)).toEqual(['mmw-migrate']);
    const hpa = manifests.find((m) => m.kind === 'HorizontalPodAutoscaler') as unknown as HorizontalPodAutoscaler;
    expect(hpa.spec?.scaleTargetRef.name).toBe('mmw-ingress');
    const budgets = manifests.filter((m) => m.kind === 'PodDisruptionBudget').map((m) => m.metadata.name);
    expect(budgets.sort()).toEqual(['mmw-dashboard', 'mmw-ingress', 'mmw-worker']);
  });
});
