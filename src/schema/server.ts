import { type PreparedServer, prepareServer } from "../service/server.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { spelledUseCase } from "./errors.js";
import { ASSET_FIELD_NULLABLE, AssetRef } from "./impact.js";
import { ServerInputRef } from "./inputs.js";

export const ServerRef = builder.objectRef<PreparedServer>("Server").implement({
  interfaces: [AssetRef],
  description: "A server: its components are completed from the archetype, reference tables and defaults.",
  fields: (t) => ({
    archetype: t.exposeString("archetype", { description: "Server archetype the evaluation starts from." }),
  }),
});

builder.queryField("server", (t) =>
  t.field({
    type: ServerRef,
    nullable: ASSET_FIELD_NULLABLE,
    description: "Evaluate a server described by an archetype and an optional configuration and usage.",
    args: {
      archetype: t.arg.string({
        required: false,
        description: "Server archetype id; default platform_compute_medium.",
      }),
      input: t.arg({
        type: ServerInputRef,
        required: false,
        description: "What is known of the server; the rest comes from the archetype.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveServer(context.edition(args.edition), args.archetype, args.input, ["input"]),
  }),
);

/** The use case of src/service, its domain errors spelled as GraphQL errors. */
export const resolveServer = spelledUseCase(prepareServer);
