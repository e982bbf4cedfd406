import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Encoding } from "../compression.js";
import type { Reply } from "../reply.js";

/*
 * Browser assets served by the service itself from npm packages (GraphiQL, Swagger UI): pages
 * work without access to another host. Files are read once and their compressed forms made once.
 */

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
};

/** URL prefix → package directory and the files served from it. */
const PACKAGES = [
  {
    prefix: "/assets/graphiql/",
    pkg: "@graphql-yoga/graphiql",
    files: [
      "dist/graphiql.css",
      "dist/yoga-graphiql.umd.js",
      "dist/monacoeditorwork/editor.worker.bundle.js",
      "dist/monacoeditorwork/json.worker.bundle.js",
      "dist/monacoeditorwork/graphql.worker..bundle.js",
    ],
  },
  {
    prefix: "/assets/swagger-ui/",
    pkg: "swagger-ui-dist",
    files: ["swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js", "favicon-32x32.png"],
  },
] as const;

/** The URL of a served file, e.g. `assetUrl("graphiql", "dist/graphiql.css")`. */
export function assetUrl(family: "graphiql" | "swagger-ui", file: string): string {
  return `/assets/${family}/${file}`;
}

interface AssetFile {
  readonly path: string;
  readonly contentType: string;
}

const compressors = {
  br: promisify((input: Buffer, callback: (error: Error | null, result: Buffer) => void) =>
    brotliCompress(input, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }, callback),
  ),
  gzip: promisify((input: Buffer, callback: (error: Error | null, result: Buffer) => void) =>
    gzip(input, { level: 9 }, callback),
  ),
};

export interface Assets {
  /** The asset at `path` in the encoding, or null when `path` is not an asset. */
  serve(path: string, encoding: Encoding | null): Promise<Reply | null>;
}

export function createAssets(): Assets {
  const files = new Map<string, AssetFile>();
  for (const { prefix, pkg, files: names } of PACKAGES) {
    const dir = packageDir(pkg);
    for (const name of names) {
      const extension = name.slice(name.lastIndexOf("."));
      files.set(`${prefix}${name}`, { path: join(dir, name), contentType: CONTENT_TYPES[extension] });
    }
  }
  // Contents by (path, encoding), made on first use: a fixed, small set of files.
  const contents = new Map<string, Promise<Buffer>>();
  const content = (path: string, file: AssetFile, encoding: Encoding | null): Promise<Buffer> => {
    const key = `${encoding ?? "identity"} ${path}`;
    let found = contents.get(key);
    if (!found) {
      found = encoding === null ? readFile(file.path) : content(path, file, null).then(compressors[encoding]);
      // A failed read is not kept: the next request tries again.
      found.catch(() => contents.delete(key));
      contents.set(key, found);
    }
    return found;
  };
  return {
    async serve(path, encoding) {
      const file = files.get(path);
      if (!file) return null;
      const compress = encoding !== null && !file.contentType.startsWith("image/");
      const body = await content(path, file, compress ? encoding : null);
      return {
        status: 200,
        headers: {
          "content-type": file.contentType,
          "cache-control": "public, max-age=86400",
          vary: "Accept-Encoding",
          ...(compress ? { "content-encoding": encoding } : {}),
        },
        body,
      };
    },
  };
}
