import { GENERATIVE_AI_EDITION } from "../../editions/index.js";
import { GENERATIVE_AI } from "../../inputs/inputFields.js";
import { evaluatedShape } from "../../service/evaluations/evaluations.js";
import { type PreparedGenerativeAi, prepareGenerativeAi } from "../../service/generativeAi.js";
import { builder } from "../builder.js";
import { spelled } from "../errors.js";
import { ASSET_FIELD_NULLABLE, AssetRef } from "../impact.js";
import { inputRef } from "../inputs.js";
import { BoundsRef } from "./models.js";

/*
 * Generative-AI usage (docs/methodology.md, "Generative AI"): one request to a model, evaluated
 * in the edition of EcoLogits' release, whatever Boavizta edition the request names.
 */

const GenerativeAiUsageRef = builder.objectRef<PreparedGenerativeAi>("GenerativeAiUsage").implement({
  interfaces: [AssetRef],
  description:
    `One request to a generative-AI model, as ${GENERATIVE_AI_EDITION.rules.version} evaluates it: its energy (criterion fe, kWh), gwp, adp, pe ` +
    "and water (wcf, L), use and embedded (the server's and GPUs' share of the generation's time), min and max " +
    "from both ends of the data's ranges, the value their mean; unrounded. `duration` and `allocation` change " +
    "nothing: a request's impacts are its own. Input tokens are not part of the computation.",
  fields: (t) => ({
    edition: t.exposeString("edition", {
      description: `The edition evaluating it: EcoLogits' release (${GENERATIVE_AI_EDITION.id}).`,
    }),
    provider: t.exposeString("provider", { description: "The model's provider, as EcoLogits names it." }),
    model: t.exposeString("model", { description: "The model evaluated." }),
    zone: t.string({
      description: "The electricity's zone read: the request's, or the provider's data centres'.",
      resolve: (parent, _args, context) => evaluatedShape(context, parent).zone,
    }),
    gpus: t.field({
      type: BoundsRef,
      description: "GPUs the model's weights take (80 GB each, a power of two), at both ends of its size.",
      resolve: (parent, _args, context) => evaluatedShape(context, parent).gpus,
    }),
    generationLatency: t.field({
      type: BoundsRef,
      description: "Seconds of generation the hardware is counted for (the request's latency when shorter).",
      resolve: (parent, _args, context) => evaluatedShape(context, parent).generationLatency,
    }),
    warnings: t.stringList({
      description: "The data's caveats about this request: the model's architecture, the zone's factors.",
      resolve: (parent, _args, context) => [...evaluatedShape(context, parent).warnings],
    }),
  }),
});

builder.queryFields((t) => ({
  generativeAi: t.field({
    type: GenerativeAiUsageRef,
    nullable: ASSET_FIELD_NULLABLE,
    description:
      "Evaluate one request to a generative-AI model (docs/methodology.md, Generative AI). A model the data lacks is NOT_FOUND, naming the closest names.",
    args: {
      input: t.arg({
        type: inputRef(GENERATIVE_AI),
        required: true,
        description: "The model and the request.",
      }),
    },
    resolve: (_root, args, context) =>
      spelled(() =>
        prepareGenerativeAi(context.service.generativeAi, context.service.limits, args.input, ["input"]),
      ),
  }),
}));
