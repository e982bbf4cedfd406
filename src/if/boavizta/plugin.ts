import type { DocumentNode } from "graphql";
import { z } from "zod";
import type { PowerPer } from "../../service/energy.js";
import type { EditionService } from "../../service/open.js";
import { COMMON_INPUTS, outputsOf } from "./metadata.js";
import { evaluateObservation } from "./observationEvaluation.js";
import {
  type CheckedConfig,
  COMMON_FIELDS,
  CONFIG,
  checked,
  DEFAULT_CRITERIA,
  type IfPluginFactory,
  MAPPING,
  mappedObservation,
  PARAMETER_METADATA,
  type ParameterMetadata,
  PluginInputError,
  renamed,
  withNumbersRead,
  withoutMappedParameters,
} from "./observations.js";
import { pluginEdition } from "./run.js";

/** A plugin evaluating each observation, checked against `fields`, with `request` (its query and variables). */
export function plugin<Fields extends z.ZodRawShape>(
  name: string,
  fields: Fields,
  inputs: Readonly<Record<string, ParameterMetadata>>,
  document: DocumentNode,
  powerPer: PowerPer,
  request: (
    observation: z.output<z.ZodObject<typeof COMMON_FIELDS & Fields>>,
    config: CheckedConfig,
  ) => Record<string, unknown>,
  /** Made per plugin instance: the caveats the evaluation itself does not report (an input it ignores). */
  noticesFor: () => (
    observation: z.output<z.ZodObject<typeof COMMON_FIELDS & Fields>>,
    config: CheckedConfig,
    edition: EditionService,
  ) => Promise<readonly string[]> = () => async () => [],
): IfPluginFactory {
  const observationSchema = z.looseObject({ ...COMMON_FIELDS, ...fields });
  return (givenConfig, parametersMetadata, givenMapping) => {
    const config = checked(CONFIG, givenConfig ?? undefined, `${name} config`);
    const given = checked(PARAMETER_METADATA, parametersMetadata, `${name} parameter-metadata`);
    const mapping = checked(MAPPING, givenMapping, `${name} mapping`) ?? {};
    const noticesOf = noticesFor();
    let served: EditionService | undefined;
    return {
      metadata: {
        kind: "execute",
        inputs: { ...COMMON_INPUTS, ...inputs, ...given?.inputs },
        outputs: renamed({ ...outputsOf(config?.criteria ?? DEFAULT_CRITERIA), ...given?.outputs }, mapping),
      },
      execute: async (observations) => {
        // The config's edition, resolved once for every observation of this instance.
        served ??= pluginEdition(config?.edition, `${name} config`);
        const edition = served;
        const outputs: Record<string, unknown>[] = [];
        for (const [index, observation] of observations.entries()) {
          const where = `${name} observation ${index + 1}`;
          const view = mappedObservation(observation, mapping);
          const read = checked(observationSchema, view, where);
          try {
            const notices = await noticesOf(read, config, edition);
            const evaluated = await evaluateObservation(document, {
              powerPer,
              variables: request(read, config),
              observation: withNumbersRead(view, read),
              config,
              edition,
              notices,
            });
            outputs.push(renamed(withoutMappedParameters(evaluated, observation, mapping), mapping));
          } catch (error) {
            if (!(error instanceof PluginInputError)) throw error;
            throw new PluginInputError(`${where}: ${error.message}`);
          }
        }
        return outputs;
      },
    };
  };
}
