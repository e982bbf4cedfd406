import { EDITION_IDS } from "../editions/index.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";

/** One served edition as listed (`editions`, `GET /v1/utils/editions`). */
interface EditionListing {
  readonly id: string;
  readonly base: string | null;
  readonly data: string | null;
  readonly methodology: string;
}

const EditionInfoRef = builder.objectRef<EditionListing>("EditionInfo").implement({
  description:
    "An edition the service serves: a built-in one, or a custom one (EDITIONS_FILE) on a built-in base.",
  fields: (t) => ({
    id: t.exposeString("id", {
      description: `What \`edition\` names it by (${EDITION_IDS.map((id) => JSON.stringify(id)).join(", ")}, a custom edition's id).`,
    }),
    base: t.exposeString("base", {
      nullable: true,
      description:
        "The built-in edition a custom edition extends (its rules and defaults); null for a built-in edition.",
    }),
    data: t.exposeString("data", {
      nullable: true,
      description:
        "A custom edition's data folder (its files replace the base's); null for a built-in edition (data/ of the service).",
    }),
    methodology: t.exposeString("methodology", {
      description: "The methodology version (boaviztapi release) of its answers: its own or its base's.",
    }),
  }),
});

builder.queryFields((t) => ({
  editions: t.field({
    type: [EditionInfoRef],
    description:
      "Every edition the service serves, built-in ones first, then the custom ones of EDITIONS_FILE.",
    args: { edition: editionArg(t.arg) },
    resolve: (_root, args, context) => {
      // The argument is checked like everywhere (an unknown edition is an error); the list is the same.
      context.edition(args.edition);
      return [...context.service.editions.values()].map(({ edition, rules }) => ({
        id: edition.id,
        base: edition.base,
        data: edition.dataFolder,
        methodology: rules.version,
      }));
    },
  }),
}));
