import type { AiModel, Bounds } from "../../data/generativeAi.js";
import { builder } from "../builder.js";
import { badUserInput } from "../errors.js";

/*
 * The models of the generative-AI edition's data (docs/methodology.md, "Generative AI"): what a
 * client may name, with what the evaluation reads of each.
 */

export const BoundsRef = builder.objectRef<Bounds>("Bounds").implement({
  description: "A figure's low and high ends (equal when the data gives one figure).",
  fields: (t) => ({
    min: t.exposeFloat("min", { description: "Low end." }),
    max: t.exposeFloat("max", { description: "High end." }),
  }),
});

const GenerativeAiModelRef = builder.objectRef<AiModel>("GenerativeAiModel").implement({
  description: "A model of the generative-AI edition's data, with what its evaluation reads.",
  fields: (t) => ({
    provider: t.exposeString("provider", { description: "Its provider, as EcoLogits names it." }),
    name: t.exposeString("name", { description: "Its name, as the provider's API names it." }),
    aliasOf: t.exposeString("aliasOf", {
      nullable: true,
      description: "The model whose figures this name shares, for an alias.",
    }),
    architecture: t.exposeString("architecture", { description: "dense or moe (a mixture of experts)." }),
    totalParameters: t.expose("totalParameters", {
      type: BoundsRef,
      description: "Billions of parameters loaded (a range where the architecture is not published).",
    }),
    activeParameters: t.expose("activeParameters", {
      type: BoundsRef,
      description: "Billions of parameters at work per token.",
    }),
    tokensPerSecond: t.exposeFloat("tps", {
      nullable: true,
      description: "Tokens generated per second as measured, when known.",
    }),
    timeToFirstToken: t.exposeFloat("ttft", {
      nullable: true,
      description: "Seconds to the first token, when known.",
    }),
    warnings: t.exposeStringList("warnings", { description: "EcoLogits' warning codes of the model." }),
    sources: t.exposeStringList("sources", { description: "Where its figures come from." }),
  }),
});

builder.queryFields((t) => ({
  generativeAiModels: t.field({
    type: [GenerativeAiModelRef],
    description: "The models of the generative-AI edition's data (of one provider when named), in its order.",
    args: { provider: t.arg.string({ required: false, description: "One provider's models only." }) },
    resolve: (_root, args, context) => {
      const { data } = context.service.generativeAi.engine;
      if (args.provider == null) return [...data.models];
      const models = data.byProvider.get(args.provider);
      if (models === undefined)
        throw badUserInput(
          `unknown provider ${args.provider}; one of ${[...data.providers.keys()].join(", ")}`,
          ["provider"],
        );
      return [...models.values()];
    },
  }),
}));
