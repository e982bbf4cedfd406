#!/usr/bin/env node
// The command line (src/cli/entry.ts). Its bundle, dist/bundle/cli.mjs, which `npm ci` builds
// (package.json's `prepare`, scripts/prepare.ts) and the image ships: plain JavaScript, nothing
// transpiled at start. In a checkout without a bundle, its TypeScript sources through tsx (a
// development dependency: src/cli/tsxEntry.mjs). After changing the sources, `npm run build`
// makes the bundle current again.
import { existsSync } from "node:fs";

const bundle = new URL("../dist/bundle/cli.mjs", import.meta.url);
await import(existsSync(bundle) ? bundle.href : "../src/cli/tsxEntry.mjs");
