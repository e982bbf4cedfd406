/**
 * deploy/custom-data/: the ConfigMaps of an EDITIONS_FILE and its data folder, and the Deployment
 * patch mounting them, are valid Kubernetes objects, agree with each other and with the Deployment
 * of deploy/, and the service serves what they mount (the mounted layout rebuilt in a folder).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { ConfigMap, type IConfigMap } from "kubernetes-models/v1";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { createApp } from "../../src/app/main.js";
import { testConfig } from "../support/app.js";
import { call } from "../support/rest.js";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

const configMaps = parseAllDocuments(read("deploy/custom-data/configmaps.yaml")).map(
  (doc) => doc.toJS() as IConfigMap,
);
const patch = parseYaml(read("deploy/custom-data/deployment-patch.yaml")) as IDeployment;
const deployment = parseYaml(read("deploy/deployment.yaml")) as IDeployment;

/** The Deployment with the patch merged as `kubectl patch` does (containers and volumes by name). */
function patched(): IDeployment {
  const merged = structuredClone(deployment);
  const pod = merged.spec!.template.spec!;
  const patchPod = patch.spec!.template.spec!;
  pod.volumes = [...(pod.volumes ?? []), ...(patchPod.volumes ?? [])];
  for (const change of patchPod.containers) {
    const container = pod.containers.find((c) => c.name === change.name);
    expect(container, change.name).toBeDefined();
    if (!container) continue;
    container.env = [...(container.env ?? []), ...(change.env ?? [])];
    container.volumeMounts = [...(container.volumeMounts ?? []), ...(change.volumeMounts ?? [])];
  }
  return merged;
}

const scratch = mkdtempSync(join(tmpdir(), "custom-data-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("deploy/custom-data", () => {
  it("holds valid ConfigMaps and a patch that keeps the Deployment valid", () => {
    expect(configMaps.map((map) => map.metadata?.name)).toEqual(["impact-editions", "impact-acme-data"]);
    for (const map of configMaps) expect(() => new ConfigMap(map).validate()).not.toThrow();
    expect(() => new Deployment(patched()).validate()).not.toThrow();
  });

  it("the service serves what the pod mounts", async () => {
    // Rebuild the mounted files under a scratch root: each volume's ConfigMap keys (or items) at
    // the container's mount path.
    const pod = patched().spec!.template.spec!;
    const [container] = pod.containers;
    const under = (path: string) => join(scratch, path);
    for (const mount of container.volumeMounts ?? []) {
      const volume = pod.volumes?.find((v) => v.name === mount.name);
      // The base's temp folder (an emptyDir) holds no data.
      if (volume?.emptyDir !== undefined) continue;
      const map = configMaps.find((m) => m.metadata?.name === volume?.configMap?.name);
      expect(map, mount.name).toBeDefined();
      const items =
        volume?.configMap?.items ?? Object.keys(map?.data ?? {}).map((key) => ({ key, path: key }));
      for (const { key, path } of items) {
        const file = under(join(mount.mountPath, path));
        mkdirSync(dirname(file), { recursive: true });
        // The EDITIONS_FILE names the data folder by its path in the pod: rewrite it to the scratch root.
        writeFileSync(
          file,
          (map?.data?.[key] ?? "").replaceAll("/etc/impacts/", `${under("/etc/impacts")}/`),
        );
      }
    }
    const editionsFile = container.env?.find((variable) => variable.name === "EDITIONS_FILE")?.value;
    expect(editionsFile).toBe("/etc/impacts/editions/editions.yml");
    const app = createApp(testConfig({ EDITIONS_FILE: under(editionsFile ?? "") }));
    const listed = await call(app, "GET", "/v1/cloud/instance/all_instances?provider=aws&edition=acme");
    expect(listed.body).toEqual(["acme.std-4", "acme.std-16"]);
    // The base's other tables are served: Azure, and the default server archetype.
    const azure = await call(app, "GET", "/v1/cloud/instance/all_instances?provider=azure&edition=acme");
    expect(azure.body).toHaveLength(394);
    const instance = await call(app, "GET", "/v1/cloud/instance?verbose=false&criteria=gwp&edition=acme");
    expect(instance.status).toBe(200);
  });
});
