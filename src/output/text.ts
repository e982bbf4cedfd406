/*
 * Text from an input or an answer, made safe to print (src/support/terminalText.ts): the output
 * writers' name for it.
 */
export { printable as withoutControls } from "../support/terminalText.js";
