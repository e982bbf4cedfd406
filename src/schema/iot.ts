import { IOT_DEVICE } from "../inputs/inputFields.js";
import { type PreparedIotDevice, prepareIotDevice } from "../service/devices.js";
import { archetypeConfigField } from "./archetypeConfig.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { rethrowSpelled } from "./errors.js";
import { ASSET_FIELD_NULLABLE, AssetRef } from "./impact.js";
import { inputRef } from "./inputs.js";

/*
 * IoT devices (docs/methodology.md §9.2–9.3): functional blocks at a hardware sophistication level (HSL),
 * from an iot_device.csv row or posted.
 */

const IotDeviceRef = builder.objectRef<PreparedIotDevice>("IotDevice").implement({
  interfaces: [AssetRef],
  description:
    "An IoT device: the manufacturing and end-of-life impacts of its functional blocks, allocated " +
    "over the device lifetime; a use phase only when an average power is given.",
  fields: (t) => ({
    archetype: t.exposeString("archetype", { description: "The iot_device.csv row used." }),
  }),
});

const IotDeviceInputRef = inputRef(IOT_DEVICE);

builder.queryFields((t) => ({
  iotDevice: t.field({
    type: IotDeviceRef,
    nullable: ASSET_FIELD_NULLABLE,
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
  iotDeviceArchetypeConfig: archetypeConfigField(
    t,
    { field: "A parsed iot_device.csv row.", archetype: "Row id of iot_device.csv." },
    (context) => context.service.data.archetypes.iotDevice,
  ),
}));
