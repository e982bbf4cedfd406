import { METHODOLOGY_VERSIONS, SERVICE_VERSION } from "../version.js";
import { builder } from "./builder.js";

interface VersionShape {
  readonly service: string;
  readonly methodology: string;
  readonly methodologies: readonly string[];
}

const VersionRef = builder.objectRef<VersionShape>("Version").implement({
  description: "Versions of this service and of the Boavizta methodology it implements.",
  fields: (t) => ({
    service: t.exposeString("service", { description: "Version of this service (semver, package.json)." }),
    methodology: t.exposeString("methodology", {
      description: "Methodology version (boaviztapi release) used when none is chosen, e.g. 1.2.4.",
    }),
    methodologies: t.exposeStringList("methodologies", {
      description:
        "Every methodology version (boaviztapi release) the service implements, the default first.",
    }),
  }),
});

builder.queryFields((t) => ({
  version: t.field({
    type: VersionRef,
    description: "Versions of the service and of the methodology it implements.",
    resolve: () => ({
      service: SERVICE_VERSION,
      methodology: METHODOLOGY_VERSIONS[0],
      methodologies: METHODOLOGY_VERSIONS,
    }),
  }),
}));
