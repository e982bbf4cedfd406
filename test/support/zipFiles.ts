/** ZIP archives written for a test, with yazl: each entry's bytes, a name ending in `/` a folder. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import yazl from "yazl";

/** A ZIP archive of these entries, written as `name` in `folder`: its path. */
export async function zipFileIn(
  folder: string,
  name: string,
  entries: Record<string, Buffer | string>,
): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [path, content] of Object.entries(entries)) {
    if (path.endsWith("/")) zip.addEmptyDirectory(path);
    else zip.addBuffer(Buffer.from(content), path);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const file = join(folder, name);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}
