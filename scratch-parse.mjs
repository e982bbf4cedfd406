import { parse, visit } from "graphql";
const docs = [];
function dense(i) { return `{ a${i}(x: [${"1 ".repeat(19990)}]) }`; }
function sparse(i) { return `query Q${i} { ${Array.from({length: 200}, (_, k) => `f${k}: cloudInstance(provider: "aws", instanceType: "m5.large${k}") { impacts { criterion value } }`).join("\n  ")} }`; }
for (const [name, make] of [["dense", dense], ["sparse", sparse]]) {
  global.gc(); const before = process.memoryUsage().heapUsed;
  let chars = 0, tokens = 0, nodes = 0;
  for (let i = 0; i < 50; i++) {
    const text = make(i); chars += text.length;
    const d = parse(text);
    let t = d.loc.startToken; while (t) { tokens++; t = t.next; }
    visit(d, { enter() { nodes++; } });
    docs.push(d);
  }
  global.gc(); const after = process.memoryUsage().heapUsed;
  const bytes = after - before;
  console.log(name, "chars/doc", chars/50, "tokens/doc", tokens/50, "nodes/doc", nodes/50, "heap/doc", Math.round(bytes/50), "B/char", (bytes/chars).toFixed(1), "B/token", (bytes/tokens).toFixed(1), "B/node", (bytes/nodes).toFixed(1));
}
