/**
 * `text` with the same characters, held by V8 as one flat string. A text joined from parts (a
 * template literal of 13 characters or more) is a rope of them until something flattens it, and
 * one rope anywhere in a value sends V8's JSON.stringify off its fast path for the whole value: a
 * verbose server answer with its few `source` texts joined per request serialised at about half
 * the speed of the same answer without them (bench/README.md, "Answers on JSON.stringify's fast
 * path"). For the texts an answer shows that are joined per request; a text read from the data is
 * flat already. `normalize()` returns a flat string whose characters are `text`'s whenever `text`
 * is in NFC (any text of Latin-1 characters is); a text that is not is kept as it is.
 */
export function flatText(text: string): string {
  const flat = text.normalize();
  return flat === text ? flat : text;
}
