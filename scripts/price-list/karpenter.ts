/*
 * The on-demand prices Karpenter's providers generate into Go maps (read by scripts/price-list.ts):
 * each provider's map of region to instance type to USD an hour, generated from the provider's own
 * price source at the date its file's header names. Read as text, a line at a time: the files are
 * data, never compiled nor run here. Each reader gives `region,type` → price, the prices above 0.
 */

/** `region,type` → USD an hour. */
export type GeneratedPrices = Map<string, number>;

/**
 * AWS's (github.com/aws/karpenter-provider-aws, `pkg/providers/pricing/zz_generated.pricing_aws*.go`):
 * each `"region": {` opens a region, each `"type": price` is one price in it.
 */
export function awsKarpenterPrices(text: string): GeneratedPrices {
  const prices: GeneratedPrices = new Map();
  let region: string | null = null;
  for (const line of text.split("\n")) {
    const opened = /^\s*"([a-z]{2}(?:-[a-z]+)+-\d+)":\s*\{/.exec(line);
    if (opened !== null) {
      region = opened[1];
      continue;
    }
    if (region === null) continue;
    for (const [, type, price] of line.matchAll(/"([a-z0-9-]+\.[a-z0-9-]+)":\s*([0-9.]+)/g))
      if (Number(price) > 0) prices.set(`${region},${type}`, Number(price));
  }
  return prices;
}

/**
 * Whether a key of Azure's map is a VM size a bill can name: `Standard_`, a family's letters and
 * its vCPUs, then its attributes, accelerator and version (`Standard_D2s_v3`, `Standard_D32-16s_v3`,
 * `Standard_NC4as_T4_v3`; Microsoft Learn, "Azure virtual machine sizes naming conventions"). The
 * map also keys dedicated hosts (`Dadsv5_Type1`, `Fsv2 Type3`) and the retired Basic tier
 * (`Basic_A0`), which are no VM size of the Standard tier and are left out.
 */
export const isAzureVmSize = (key: string): boolean => /^standard_[a-z]+\d+[a-z0-9_-]*$/i.test(key);

/**
 * Azure's (github.com/Azure/karpenter-provider-azure, `pkg/providers/pricing/zz_generated.pricing.go`):
 * each `initialOnDemandPrices["region"] = …{` opens a region (its ARM name, `eastus`), each
 * `"size": price` is one price in it; the sizes that are not VM sizes are left out, counted.
 */
export function azureKarpenterPrices(text: string): { prices: GeneratedPrices; notSizes: number } {
  const prices: GeneratedPrices = new Map();
  let notSizes = 0;
  let region: string | null = null;
  for (const line of text.split("\n")) {
    const opened = /^\s*initialOnDemandPrices\["([a-z0-9]+)"\]\s*=/.exec(line);
    if (opened !== null) {
      region = opened[1];
      continue;
    }
    if (region === null) continue;
    for (const [, size, price] of line.matchAll(/"([^"]+)":\s*([0-9.]+)/g)) {
      if (!isAzureVmSize(size)) notSizes += 1;
      else if (Number(price) > 0) prices.set(`${region},${size}`, Number(price));
    }
  }
  return { prices, notSizes };
}
