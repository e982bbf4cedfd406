/**
 * Deployment files: every Kubernetes manifest under deploy/ is valid against the Kubernetes
 * schemas (kubernetes-models, validated by kind), the manifests agree with each other and with the
 * service (probe paths, ports, labels), and the Dockerfile and compose.yaml keep what docs/operations.md
 * promises (non-root, healthcheck, exec-form entry point on the bundle).
 */
import { readdirSync, readFileSync } from "node:fs";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { type IService, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { RELEASE_SERVER } from "../../scripts/build.js";
import { usableCores } from "../../src/config/cores.js";

const root = new URL("../../", import.meta.url);
const deployDir = new URL("deploy/", root);

/** A parsed YAML document: only its type meta is known before validation. */
interface Manifest {
  apiVersion: string;
  kind: string;
}

/** One model class per `apiVersion/kind` the project ships; an unknown kind fails the test. */
const MODELS: Record<string, (manifest: Manifest) => { validate(): void }> = {
  "apps/v1/Deployment": (m) => new Deployment(m as IDeployment),
  "v1/Service": (m) => new Service(m as IService),
  "autoscaling/v2/HorizontalPodAutoscaler": (m) => new HorizontalPodAutoscaler(m as IHorizontalPodAutoscaler),
};

function validate(manifest: Manifest): void {
  const model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!model) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`);
  model(manifest).validate();
}

function loadManifests(): { file: string; manifest: Manifest }[] {
  const files = readdirSync(deployDir).filter((f) => /\.ya?ml$/.test(f));
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(new URL(file, deployDir), "utf8")).map((doc) => {
      expect(doc.errors, file).toEqual([]);
      return { file, manifest: doc.toJS() as Manifest };
    }),
  );
}

const manifests = loadManifests();
function ofKind(kind: "Deployment"): IDeployment;
function ofKind(kind: "Service"): IService;
function ofKind(kind: "HorizontalPodAutoscaler"): IHorizontalPodAutoscaler;
function ofKind(kind: string): Manifest {
  const found = manifests.filter(({ manifest }) => manifest.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0].manifest;
}

describe("Kubernetes manifests (deploy/)", () => {
  it("ships a Deployment, a Service and a HorizontalPodAutoscaler", () => {
    expect(manifests.map(({ manifest }) => manifest.kind).sort()).toEqual([
      "Deployment",
      "HorizontalPodAutoscaler",
      "Service",
    ]);
  });

  it.each(manifests.map(({ file, manifest }) => [`${file} ${manifest.kind}`, manifest] as const))(
    "%s is valid against the Kubernetes schema of its kind",
    (_, manifest) => {
      expect(() => validate(manifest)).not.toThrow();
    },
  );

  it("the validation rejects a manifest that breaks the schema", () => {
    const deployment = structuredClone(ofKind("Deployment"));
    Object.assign(deployment.spec!, { replicas: "two" });
    expect(() => validate(deployment)).toThrow();
    const service = structuredClone(ofKind("Service"));
    Object.assign(service.spec!.ports![0], { port: { number: 80 } });
    expect(() => validate(service)).toThrow();
    expect(() => validate({ ...service, kind: "Ingress" })).toThrow(/no schema/);
  });

  it("the Deployment probes /readyz (readiness) and /healthz (liveness) on the container's port", () => {
    const [container] = ofKind("Deployment").spec!.template.spec!.containers;
    expect(container.readinessProbe?.httpGet?.path).toBe("/readyz");
    expect(container.livenessProbe?.httpGet?.path).toBe("/healthz");
    const portNames = container.ports!.map((p) => p.name);
    expect(portNames).toContain(container.readinessProbe?.httpGet?.port);
    expect(portNames).toContain(container.livenessProbe?.httpGet?.port);
    const port = container.ports!.find((p) => p.name === "http")!.containerPort;
    expect(container.env).toContainEqual({ name: "PORT", value: String(port) });
  });

  it("the Deployment sets resource requests and limits and runs as non-root", () => {
    const pod = ofKind("Deployment").spec!.template.spec!;
    const [container] = pod.containers;
    for (const bound of [container.resources?.requests, container.resources?.limits]) {
      expect(bound?.cpu).toBeDefined();
      expect(bound?.memory).toBeDefined();
    }
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
  });

  it("the Service selects the Deployment's pods and targets its named port", () => {
    const deployment = ofKind("Deployment");
    const service = ofKind("Service");
    const podLabels = deployment.spec!.template.metadata!.labels!;
    expect(Object.keys(service.spec!.selector!).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(service.spec!.selector!)) expect(podLabels[key]).toBe(value);
    for (const [key, value] of Object.entries(deployment.spec!.selector.matchLabels!))
      expect(podLabels[key]).toBe(value);
    const containerPorts = deployment.spec!.template.spec!.containers[0].ports!.map((p) => p.name);
    for (const port of service.spec!.ports!) expect(containerPorts).toContain(port.targetPort);
  });

  it("the autoscaler scales the Deployment on CPU utilisation", () => {
    const deployment = ofKind("Deployment");
    const hpa = ofKind("HorizontalPodAutoscaler");
    expect(hpa.spec!.scaleTargetRef).toEqual({
      apiVersion: deployment.apiVersion,
      kind: "Deployment",
      name: deployment.metadata!.name,
    });
    expect(hpa.spec!.minReplicas).toBeLessThanOrEqual(hpa.spec!.maxReplicas);
    const cpu = hpa.spec!.metrics!.find((m) => m.type === "Resource" && m.resource?.name === "cpu");
    expect(cpu?.resource?.target.type).toBe("Utilization");
  });
});

describe("Container image (Dockerfile, compose.yaml)", () => {
  const dockerfile = readFileSync(new URL("Dockerfile", root), "utf8");
  const instructions = dockerfile
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => /^[A-Z]+\s/.test(line));
  const stageStarts = instructions.flatMap((line, i) => (line.startsWith("FROM ") ? [i] : []));
  const lastStage = instructions.slice(stageStarts.at(-1));
  const packageJson = JSON.parse(readFileSync(new URL("package.json", root), "utf8"));

  it("is multi-stage and runs the esbuild bundle that npm run build writes, exec form, as npm start", () => {
    expect(stageStarts.length).toBeGreaterThan(1);
    // `npm run build` is scripts/build.ts, which writes RELEASE_SERVER.
    expect(packageJson.scripts.build).toBe("tsx scripts/build.ts");
    const outfile = RELEASE_SERVER;
    const entry = lastStage.find((line) => line.startsWith("ENTRYPOINT ") || line.startsWith("CMD "));
    expect(entry).toBeDefined();
    const argv = JSON.parse((entry as string).replace(/^(ENTRYPOINT|CMD)\s+/, ""));
    expect(argv.at(-1)).toBe(outfile);
    // Node's flags (the young generation's size) are the ones `npm start` gives.
    const started = /\bexec (node .+)$/.exec(packageJson.scripts.start)?.[1].split(" ");
    expect(argv).toEqual(started);
  });

  it("runs as a non-root user with a healthcheck on /healthz", () => {
    const user = lastStage.find((line) => line.startsWith("USER "));
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER\s+(root|0)\b/);
    const healthcheck = lastStage.find((line) => line.startsWith("HEALTHCHECK "));
    expect(healthcheck).toMatch(/CMD \[.*\/healthz/);
  });

  it("copies the reference data the bundle loads at start-up, without the raw files", () => {
    expect(lastStage).toContainEqual(expect.stringMatching(/^COPY data \.\/data/));
    const ignored = readFileSync(new URL(".dockerignore", root), "utf8").split("\n");
    expect(ignored).toContain("data/raw");
    expect(ignored).not.toContain("data");
  });

  it("ships the documents the service serves and its licence", () => {
    expect(lastStage).toContainEqual("COPY README.md CHANGELOG.md LICENSE ./");
    expect(lastStage).toContainEqual("COPY docs ./docs");
    const ignored = readFileSync(new URL(".dockerignore", root), "utf8").split("\n");
    for (const shipped of ["docs", "README.md", "CHANGELOG.md", "LICENSE"])
      expect(ignored).not.toContain(shipped);
  });

  it("compose.yaml builds this Dockerfile and publishes the service's port", () => {
    const compose = parseYaml(readFileSync(new URL("compose.yaml", root), "utf8"));
    const [service] = Object.values(compose.services) as { build: string; ports: string[] }[];
    expect(service.build).toBe(".");
    expect(service.ports).toContain("8080:8080");
  });
});

describe("the Deployment's shutdown and memory (docs/limits.md)", () => {
  const pod = ofKind("Deployment").spec!.template.spec!;
  const [container] = pod.containers;
  const env = (name: string) => container.env?.find((variable) => variable.name === name)?.value;

  it("the grace period covers the preStop pause, the drain window and the requests in flight", () => {
    const pause = container.lifecycle?.preStop?.exec?.command;
    expect(pause?.[0]).toBe("sleep");
    const seconds =
      Number(pause?.[1]) + (Number(env("SHUTDOWN_DRAIN_MS")) + Number(env("SHUTDOWN_TIMEOUT_MS"))) / 1000;
    expect(seconds).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(seconds);
  });

  it("the heap stays under the container's memory limit, and the admission budgets are the documented ones", () => {
    // Node's flags are the image's (npm start's): the Deployment does not describe them again.
    expect(env("NODE_OPTIONS")).toBeUndefined();
    const start = JSON.parse(readFileSync(new URL("package.json", root), "utf8")).scripts.start as string;
    const heap = /\bexec node .*--max-old-space-size=(\d+)/.exec(start);
    const limit = /^(\d+)Gi$/.exec(String(container.resources?.limits?.memory));
    expect(Number(heap?.[1])).toBeLessThan(Number(limit?.[1]) * 1024 * 0.8);
    const documented = readFileSync(new URL("docs/operations.md", root), "utf8");
    for (const name of [
      "MAX_CONCURRENT_FLEET_ITEMS",
      "ADMISSION_QUEUE_LENGTH",
      "MAX_BODY_BYTES_IN_FLIGHT",
      "MAX_BODY_BYTES_PER_CLIENT",
      "MAX_BATCHES_PER_CLIENT",
      "BODY_MIN_BYTES_PER_WINDOW",
      "SHUTDOWN_DRAIN_MS",
    ]) {
      expect(env(name), name).toMatch(/^\d+$/);
      expect(documented, name).toContain(`\`${name}\``);
    }
  });

  it("the workers use the cores the pod's CPU limit gives, every worker's heap within its memory limit", () => {
    const cpu = String(container.resources?.limits?.cpu);
    const cpus = cpu.endsWith("m") ? Number(cpu.slice(0, -1)) / 1000 : Number(cpu);
    expect(cpus).toBeGreaterThan(0);
    // What WORKERS=auto would start under this quota on a node of many processors.
    expect(Number(env("WORKERS"))).toBe(usableCores(64, cpus));
    const start = JSON.parse(readFileSync(new URL("package.json", root), "utf8")).scripts.start as string;
    const heap = Number(/--max-old-space-size=(\d+)/.exec(start)?.[1]);
    const memory = Number(/^(\d+)Gi$/.exec(String(container.resources?.limits?.memory))?.[1]) * 1024;
    expect(Number(env("WORKERS")) * heap).toBeLessThan(memory * 0.8);
  });
});
