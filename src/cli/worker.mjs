// The pool's worker entry (piscina loads JavaScript): the TypeScript sources through tsx.
import { register } from "tsx/esm/api";

register();
const { default: evaluateChunk } = await import("./worker.ts");
export default evaluateChunk;
