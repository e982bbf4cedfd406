/**
 * The readers of Karpenter's generated price maps (scripts/price-list/karpenter.ts), on texts laid
 * out as the generated Go files are, with the test's own figures: each region's prices, and for
 * Azure only the VM sizes of the Standard tier (a dedicated host or a Basic size is no VM size a
 * bill's hours are of, and would otherwise be read as one).
 */
import { describe, expect, it } from "vitest";
import {
  awsKarpenterPrices,
  azureKarpenterPrices,
  isAzureVmSize,
} from "../../scripts/price-list/karpenter.js";

const AWS_TEXT = `// generated at 2026-01-02T03:04:05Z for us-east-1

var initialOnDemandPricesAWS = map[string]map[ec2types.InstanceType]float64{
	// us-east-1
	"us-east-1": {
		// m5 family
		"m5.large": 0.100000, "m5.xlarge": 0.200000,
		"m8i.xlarge": 0.250000, "free.nano": 0.000000,
	},
	"us-gov-west-1": {
		"m5.large": 0.120000,
	},
}
`;

const AZURE_TEXT = `// generated at 2024-01-02T03:04:05Z

var initialOnDemandPrices = map[string]map[string]float64{}

func init() {
	// eastus
	initialOnDemandPrices["eastus"] = map[string]float64{
		"Basic_A0":               0.020000,
		"Dadsv5_Type1":           8.000000,
		"Fsv2 Type3":             5.000000,
		"Standard_D2s_v3":        0.100000,
		"Standard_D32-16s_v3":    1.600000,
		"Standard_NC4as_T4_v3":   0.500000,
	}
	// swedencentral
	initialOnDemandPrices["swedencentral"] = map[string]float64{
		"Standard_D2s_v3":        0.110000,
	}
}
`;

describe("Karpenter's generated AWS prices", () => {
  it("are each region's types above 0", () => {
    expect([...awsKarpenterPrices(AWS_TEXT)]).toEqual([
      ["us-east-1,m5.large", 0.1],
      ["us-east-1,m5.xlarge", 0.2],
      ["us-east-1,m8i.xlarge", 0.25],
      ["us-gov-west-1,m5.large", 0.12],
    ]);
  });
});

describe("Karpenter's generated Azure prices", () => {
  it("are each region's VM sizes, the keys that are none counted and left out", () => {
    const { prices, notSizes } = azureKarpenterPrices(AZURE_TEXT);
    expect([...prices]).toEqual([
      ["eastus,Standard_D2s_v3", 0.1],
      ["eastus,Standard_D32-16s_v3", 1.6],
      ["eastus,Standard_NC4as_T4_v3", 0.5],
      ["swedencentral,Standard_D2s_v3", 0.11],
    ]);
    expect(notSizes).toBe(3);
  });

  it("take a VM size by its Standard tier and its family's vCPUs", () => {
    for (const size of ["Standard_A0", "Standard_D2s_v3", "Standard_E4-2ads_v5", "Standard_D11_v2_Promo"])
      expect(isAzureVmSize(size), size).toBe(true);
    for (const key of ["Basic_A0", "Dsv3_Type3", "Ddsv4_Type 1", "Ebsv5-Type1", "Standard_", "standard d2"])
      expect(isAzureVmSize(key), key).toBe(false);
  });
});
