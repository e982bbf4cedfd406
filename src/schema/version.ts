import { DEFAULT_EDITION_ID, EDITION_IDS } from "../editions/index.js";
import { SERVICE_VERSION } from "../support/serviceVersion.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";

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
      description:
        "Methodology version (boaviztapi release, the edition) of the answers: the requested edition, " +
        `else the service's default (EDITION), e.g. ${DEFAULT_EDITION_ID}.`,
    }),
    methodologies: t.exposeStringList("methodologies", {
      description: "Every methodology version (boaviztapi release, edition) the service implements.",
    }),
  }),
});

builder.queryFields((t) => ({
  version: t.field({
    type: VersionRef,
    description: "Versions of the service and of the methodology it implements.",
    args: { edition: editionArg(t.arg) },
    resolve: (_root, args, context) => ({
      service: SERVICE_VERSION,
      methodology: context.edition(args.edition).engine.rules.version,
      methodologies: EDITION_IDS,
    }),
  }),
}));
