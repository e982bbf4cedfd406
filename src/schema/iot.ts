import { nestedArchetype } from "../data/cells.js";
import { IOT_DEVICE } from "../inputs/catalogue.js";
import { loadIotRow, type PreparedIotDevice, prepareIotDevice } from "../service/devices.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { rethrowSpelled } from "./errors.js";
import { assetImpactFields } from "./impact.js";
import { inputRef } from "./inputs.js";

/*
 * IoT devices (docs/methodology.md §9.2–9.3): functional blocks at a hardware sophistication level (HSL),
 * from an iot_device.csv row or posted.
 */

export const IotDeviceRef = builder.objectRef<PreparedIotDevice>("IotDevice").implement({
  description:
    "An IoT device: the manufacturing and end-of-life impacts of its functional blocks, allocated " +
    "over the device lifetime; a use phase only when an average power is given.",
  fields: (t) => ({
    archetype: t.exposeString("archetype", { description: "The iot_device.csv row used." }),
    ...assetImpactFields(t),
  }),
});

const IotDeviceInputRef = inputRef(IOT_DEVICE);

builder.queryFields((t) => ({
  iotDevice: t.field({
    type: IotDeviceRef,
    description: "Evaluate an IoT device described by an archetype and optional functional blocks and usage.",
    args: {
      archetype: t.arg.string({
        required: false,
        description: "iot_device.csv row id; default iot-device-default.",
      }),
      input: t.arg({ type: IotDeviceInputRef, required: false, description: "Functional blocks and usage." }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      prepareIotDevice(context.edition(args.edition), args.archetype, args.input).catch(rethrowSpelled),
  }),
  iotDeviceArchetypes: t.stringList({
    description: "Ids of iot_device.csv, in file order.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.archetypes.iotDevice.ids],
  }),
  iotDeviceArchetypeConfig: t.field({
    type: "JSON",
    description: "A parsed iot_device.csv row.",
    args: {
      archetype: t.arg.string({ required: true, description: "Row id of iot_device.csv." }),
      edition: editionArg(t.arg),
    },
    resolve: async (_r, { archetype, edition }, context) =>
      nestedArchetype((await loadIotRow(context.edition(edition), archetype).catch(rethrowSpelled)).cells),
  }),
}));
