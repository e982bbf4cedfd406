// The command line's TypeScript sources through tsx (piscina and node load JavaScript): what
// bin/impact-service.mjs runs in a checkout without a bundle, and what the /evaluate page of a
// service run from its sources (`npm run dev`) starts for each file.
import { register } from "tsx/esm/api";

register();
await import("./entry.ts");
