/*
 * Text from an input or an answer, made safe to print: a control character (an escape sequence
 * in an instance type, a carriage return in a cell) would act on the reader's terminal.
 */

/** The text with every C0 and C1 control character (and DEL) written as `\xNN`. */
export { printable as withoutControls } from "../support/terminalText.js";
