/*
 * A working example of each v1 request body, by the name of its schema (`BodyDoc.name`): what
 * Swagger UI's "Try it out" sends. Each is answered 200 by every route taking it, in every
 * edition offering the route (test/http/openapi.test.ts sends them).
 */

const EXAMPLE_USAGE = { usage_location: "FRA", hours_life_time: 35040, time_workload: 50 };

export const BODY_EXAMPLES: Readonly<Record<string, unknown>> = {
  Server: {
    model: { type: "rack" },
    configuration: {
      cpu: { units: 2, name: "Intel Xeon Gold 6134" },
      ram: [{ units: 12, capacity: 32 }],
      disk: [{ type: "ssd", units: 2, capacity: 960 }],
      power_supply: { units: 2, unit_weight: 2.99 },
    },
    usage: EXAMPLE_USAGE,
  },
  Cpu: { units: 2, name: "Intel Xeon Gold 6134", usage: EXAMPLE_USAGE },
  Gpu: { units: 1, name: "NVIDIA A100 PCIe 40GB", usage: { usage_location: "FRA" } },
  Ram: { units: 12, capacity: 32, manufacturer: "Samsung", usage: EXAMPLE_USAGE },
  Disk: { units: 2, capacity: 960, manufacturer: "Samsung" },
  SimpleComponent: { units: 1 },
  Hdd: { units: 2, capacity: 2000 },
  PowerSupply: { units: 2, unit_weight: 2.99 },
  Case: { units: 1, case_type: "rack" },
  CloudInstance: {
    provider: "aws",
    instance_type: "m5.xlarge",
    usage: { usage_location: "FRA", use_time_ratio: 0.5 },
  },
  UserDevice: { usage: { usage_location: "FRA", use_time_ratio: 0.3 } },
  IotDevice: {
    functional_blocks: [
      { type: "casing", hsl_level: "HSL-1" },
      { type: "pcb", hsl_level: "HSL-1" },
    ],
    usage: { usage_location: "FRA", avg_power: 0.5 },
  },
  GenerativeAi: { provider: "openai", model: "gpt-4o-mini", output_tokens: 400, zone: "FRA" },
  CpuConsumptionProfileUse: {
    cpu: { name: "Intel Xeon Gold 6134" },
    usage: { usage_location: "FRA", time_workload: 50, years_use_time: 1 },
  },
  CpuConsumptionProfile: {
    cpu: { name: "Intel Xeon Gold 6134" },
    workload: [
      { load_percentage: 0, power_watt: 30 },
      { load_percentage: 50, power_watt: 100 },
      { load_percentage: 100, power_watt: 150 },
    ],
  },
  // Boavizta cloud-scanner's inventory (its INVENTORY_JSON_SCHEMA.json): an instance and its volume.
  CloudScannerInventory: {
    metadata: { description: "An example" },
    resources: [
      {
        provider: "AWS",
        id: "i-0123456789abcdef0",
        location: { aws_region: "eu-west-3", iso_country_code: "FRA" },
        resource_details: {
          instance: { instance_type: "m5.xlarge", usage: { average_cpu_load: 35, state: "running" } },
        },
        tags: [{ key: "env", value: "prod" }],
      },
      {
        provider: "AWS",
        id: "vol-0123456789abcdef0",
        location: { aws_region: "eu-west-3", iso_country_code: "FRA" },
        resource_details: {
          block_storage: {
            storage_type: "gp3",
            usage: { size_gb: 100 },
            attached_instances: [{ instance_id: "i-0123456789abcdef0" }],
          },
        },
        tags: [],
      },
    ],
  },
};
