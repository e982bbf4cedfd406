/**
 * The plain bill's climbs: how often its trip, followed call by call from the command line's
 * argument, climbs back to a layer above the one it is in.
 *
 * The walk is read from the code with TypeScript's own compiler (nothing run): from `billingMain`'s
 * `args`, every call that passes on the value is entered in the order the code runs it — a call's
 * arguments before the call — with the callee's parameters at those places followed in turn. The
 * value goes by its names: the parameter, a variable given it, a member of it (`args.parts`), and
 * what a function of the project given it returns (the options of the arguments, the plan of the
 * options: a change of form). What a destructuring binds and what a call makes of another call's
 * result are parts read off the value, not the value, and are not followed; nor is what a
 * function outside `src/` makes of it (a `Set`, a path joined). A call through an interface or a
 * value (a table of functions, an adapter's method) is chosen as the program runs: the walk stops
 * there. A stay is a file the value is in: the functions it enters there one after the other; a
 * function entered before is entered again but not walked twice.
 *
 * Each file stands on a floor: one above the highest file of `src/` it imports (a file importing
 * none is on floor 1). A climb is a stay on a higher floor than the stay before it: a helper below
 * returned, and the value goes on in a room above (the bill's entry, a stage, a reader). A move down
 * (a stage handing the value to a helper) or along a floor is none.
 *
 * Two counts:
 *   - every branch: the static walk as it is (the grid's branch, parts, JSON/Parquet, errors);
 *   - the calls that run: the same walk keeping only the functions that did work when the plain
 *     one-file CSV bill was evaluated under `NODE_V8_COVERAGE` (scripts/billing-trip.ts's run: a
 *     function that ran more often than at import): a function that did not is not entered, and
 *     none of the calls inside it are read.
 *
 *   npx tsx scripts/billing-climbs.ts [--list]
 *
 * prints both counts; --list each climb of both, from which file to which, and the function
 * entered. The bounds they are held to are in docs/testing.md ("Measuring a plain bill's path
 * through the code"), the figures climb by climb in docs/billing-code.md, beside the trip's
 * (scripts/billing-trip.ts).
 */
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import ts from "typescript";
import { billingTrip } from "./billing-trip.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where the walk starts: the command's bill, its arguments. */
const START = { file: "src/cli/main.ts", fn: "billingMain", param: "args" };
/** Events at most: a bound on the walk, far above the whole trip (about 150 stays). */
const MAX_STAYS = 2000;

export interface Stay {
  readonly index: number;
  /** The file, from the project's root. */
  readonly room: string;
  readonly floor: number;
  /** The function the value entered the room by. */
  readonly entry: string;
}

export interface Climb {
  readonly from: Stay;
  readonly to: Stay;
}

type Callable = ts.FunctionLikeDeclaration & { body?: ts.Node };

/** The project's program, as `npm run typecheck` reads it. */
function projectProgram(): ts.Program {
  const configPath = join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  const roots = parsed.fileNames.filter((file) => relative(ROOT, file).startsWith("src/"));
  return ts.createProgram(roots, parsed.options);
}

const roomOf = (file: ts.SourceFile) => relative(ROOT, file.fileName);
const inSources = (file: ts.SourceFile) => roomOf(file).startsWith("src/") && !file.isDeclarationFile;

/**
 * A layer of the house: a folder of `src/` (`src/billing`, `src/duckdb`…), each one role
 * (docs/tree.md); a file directly in `src/` is a layer of its own.
 */
export function layerOf(room: string): string {
  const parts = room.split("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : room;
}

/** Each layer's floor: one above the highest layer it imports (type imports too); none: floor 1. */
export function floorsOf(program: ts.Program): Map<string, number> {
  const checker = program.getTypeChecker();
  const imports = new Map<string, Set<string>>();
  for (const file of program.getSourceFiles().filter(inSources)) {
    const layer = layerOf(roomOf(file));
    const targets = imports.get(layer) ?? new Set<string>();
    imports.set(layer, targets);
    for (const statement of file.statements) {
      const specifier =
        ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
          ? statement.moduleSpecifier
          : undefined;
      if (specifier === undefined) continue;
      const target = checker.getSymbolAtLocation(specifier)?.declarations?.[0]?.getSourceFile();
      if (target !== undefined && inSources(target) && layerOf(roomOf(target)) !== layer) {
        targets.add(layerOf(roomOf(target)));
      }
    }
  }
  const floors = new Map<string, number>();
  const floor = (layer: string, path: ReadonlySet<string>): number => {
    const known = floors.get(layer);
    if (known !== undefined) return known;
    if (path.has(layer)) throw new Error(`an import circle between layers through ${layer}`);
    const inner = new Set(path).add(layer);
    const value = 1 + Math.max(0, ...[...(imports.get(layer) ?? [])].map((target) => floor(target, inner)));
    floors.set(layer, value);
    return value;
  };
  for (const layer of imports.keys()) floor(layer, new Set());
  return floors;
}

/** A callable's name as V8's coverage names it: its own, its variable's or its property's. */
function nameOf(fn: Callable): string {
  if (fn.name !== undefined && ts.isIdentifier(fn.name)) return fn.name.text;
  if (fn.name !== undefined && ts.isPrivateIdentifier(fn.name)) return fn.name.text;
  if (ts.isConstructorDeclaration(fn)) return fn.parent.name?.text ?? "constructor";
  const holder = fn.parent;
  if (ts.isVariableDeclaration(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
  if (ts.isPropertyAssignment(holder) && ts.isIdentifier(holder.name)) return holder.name.text;
  return "(anonymous)";
}

/** The walk of one value through the calls that pass it on. */
export function walkFrom(
  program: ts.Program,
  entering: (room: string, entry: string) => boolean = () => true,
): Stay[] {
  const checker = program.getTypeChecker();
  const floors = floorsOf(program);
  const stays: Stay[] = [];
  const walked = new Set<Callable>();

  const symbolOf = (node: ts.Node): ts.Symbol | undefined => {
    const symbol =
      ts.isShorthandPropertyAssignment(node.parent) && node.parent.name === node
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
    return symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias
      ? checker.getAliasedSymbol(symbol)
      : symbol;
  };

  /**
   * Whether an expression hands on a followed value itself or a part of it (a member, a spread into
   * a literal, the value awaited or chosen): a call's result is a value of the callee's making.
   */
  const carries = (node: ts.Expression, followed: ReadonlySet<ts.Symbol>, self: boolean): boolean => {
    if (ts.isIdentifier(node)) {
      const symbol = symbolOf(node);
      return symbol !== undefined && followed.has(symbol);
    }
    if (node.kind === ts.SyntaxKind.ThisKeyword) return self;
    if (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) {
      return carries(node.expression, followed, self);
    }
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isAwaitExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isSpreadElement(node)
    ) {
      return carries(node.expression, followed, self);
    }
    if (ts.isConditionalExpression(node)) {
      return carries(node.whenTrue, followed, self) || carries(node.whenFalse, followed, self);
    }
    if (ts.isBinaryExpression(node)) {
      const kind = node.operatorToken.kind;
      const either = kind === ts.SyntaxKind.QuestionQuestionToken || kind === ts.SyntaxKind.BarBarToken;
      return either && (carries(node.left, followed, self) || carries(node.right, followed, self));
    }
    // What a function of the project makes of the value given it is the value in another form
    // (the options of the arguments); what it makes of another call's result is another value.
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      if (calleeOf(node) === undefined) return false;
      const onValue =
        ts.isPropertyAccessExpression(node.expression) && carries(node.expression.expression, followed, self);
      const given = (arg: ts.Expression) =>
        !ts.isCallExpression(arg) &&
        !ts.isNewExpression(arg) &&
        !ts.isAwaitExpression(arg) &&
        carries(arg, followed, self);
      return onValue || (node.arguments ?? []).some(given);
    }
    if (ts.isArrayLiteralExpression(node)) return node.elements.some((e) => carries(e, followed, self));
    if (ts.isObjectLiteralExpression(node)) {
      return node.properties.some((property) =>
        ts.isPropertyAssignment(property)
          ? carries(property.initializer, followed, self)
          : ts.isShorthandPropertyAssignment(property)
            ? carries(property.name, followed, self)
            : ts.isSpreadAssignment(property) && carries(property.expression, followed, self),
      );
    }
    return false;
  };

  const bindingSymbols = (name: ts.BindingName): ts.Symbol[] => {
    if (ts.isIdentifier(name)) {
      const symbol = checker.getSymbolAtLocation(name);
      return symbol === undefined ? [] : [symbol];
    }
    return name.elements.flatMap((element) =>
      ts.isOmittedExpression(element) ? [] : bindingSymbols(element.name),
    );
  };

  /** The function a call enters, where the code names it (not an interface's member, not a value's). */
  const calleeOf = (call: ts.CallExpression | ts.NewExpression): Callable | undefined => {
    const target = ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
    // A name bound from an import() or another value: the function its type is.
    const declarations = [
      ...(symbolOf(target)?.declarations ?? []),
      ...(checker.getTypeAtLocation(target).getSymbol()?.declarations ?? []),
    ];
    for (const declaration of declarations) {
      if (!inSources(declaration.getSourceFile())) continue;
      if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) {
        if (declaration.body !== undefined) return declaration;
      }
      if (ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration)) return declaration;
      if (ts.isClassDeclaration(declaration)) {
        const made = declaration.members.find(ts.isConstructorDeclaration);
        if (made?.body !== undefined) return made;
      }
      const initializer =
        ts.isVariableDeclaration(declaration) ||
        ts.isPropertyAssignment(declaration) ||
        ts.isPropertyDeclaration(declaration)
          ? declaration.initializer
          : undefined;
      if (
        initializer !== undefined &&
        (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))
      ) {
        return initializer;
      }
    }
    return undefined;
  };

  const enter = (fn: Callable, followedParameters: ReadonlySet<ts.Symbol>, self: boolean): void => {
    if (stays.length >= MAX_STAYS) return;
    const room = roomOf(fn.getSourceFile());
    if (!entering(room, nameOf(fn))) return;
    const floor = floors.get(layerOf(room)) ?? 0;
    stays.push({ index: stays.length + 1, room, floor, entry: nameOf(fn) });
    if (walked.has(fn) || fn.body === undefined) return;
    walked.add(fn);
    const followed = new Set(followedParameters);
    const visit = (node: ts.Node): void => {
      if (stays.length >= MAX_STAYS) return;
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        // What a call is given runs before it: its arguments' own calls first.
        ts.forEachChild(node, visit);
        const args = [...(node.arguments ?? [])];
        const places = args.flatMap((arg, place) => (carries(arg, followed, self) ? [place] : []));
        const onFollowed =
          ts.isPropertyAccessExpression(node.expression) &&
          carries(node.expression.expression, followed, self);
        if (places.length === 0 && !onFollowed) return;
        const callee = calleeOf(node);
        if (callee === undefined || ts.isConstructorDeclaration(callee)) return;
        const parameters = new Set(
          places.flatMap((place) => {
            const parameter = callee.parameters[Math.min(place, callee.parameters.length - 1)];
            return parameter === undefined ? [] : bindingSymbols(parameter.name);
          }),
        );
        enter(callee, parameters, onFollowed && !ts.isArrowFunction(callee));
        return;
      }
      ts.forEachChild(node, visit);
      // A name given the value (not the parts a destructuring reads off it) is followed too.
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer !== undefined &&
        carries(node.initializer, followed, self)
      ) {
        for (const symbol of bindingSymbols(node.name)) followed.add(symbol);
      }
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        ts.isIdentifier(node.left) &&
        carries(node.right, followed, self)
      ) {
        const symbol = symbolOf(node.left);
        if (symbol !== undefined) followed.add(symbol);
      }
    };
    visit(fn.body);
  };

  const start = program.getSourceFile(join(ROOT, START.file));
  const main = start?.statements.find(
    (statement): statement is ts.FunctionDeclaration =>
      ts.isFunctionDeclaration(statement) && statement.name?.text === START.fn,
  );
  const parameter = main?.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === START.param);
  if (main === undefined || parameter === undefined) {
    throw new Error(`${START.file}:${START.fn}:${START.param} is not in the code`);
  }
  enter(main, new Set(bindingSymbols(parameter.name)), false);
  return stays;
}

/** The functions entered one after the other in one file, as one stay there (the first's index and entry). */
export function byRoom(entered: readonly Stay[]): Stay[] {
  return entered.filter((stay, index) => index === 0 || entered[index - 1].room !== stay.room);
}

/** Each stay on a higher floor than the one before it. */
export function climbsOf(stays: readonly Stay[]): Climb[] {
  return stays.slice(1).flatMap((to, index) => {
    const from = stays[index];
    return to.floor > from.floor ? [{ from, to }] : [];
  });
}

/** The stays whose function did work on the plain bill's run (the process entries apart). */
export function ranOnTrip(
  ran: ReadonlyMap<string, readonly string[]>,
): (room: string, entry: string) => boolean {
  return (room, entry) => room === START.file || (ran.get(room) ?? []).includes(entry);
}

function printed(title: string, entered: readonly Stay[], list: boolean): number {
  const stays = byRoom(entered);
  const climbs = climbsOf(stays);
  console.log(
    `${climbs.length} climbs back up ${title} (${stays.length} stays, ${entered.length} functions entered)`,
  );
  if (list) {
    for (const { from, to } of climbs) {
      console.log(
        `  ${String(to.index).padStart(4)}. ${from.room} (floor ${from.floor}) -> ${to.room} (floor ${to.floor}), in by ${to.entry}`,
      );
    }
  }
  return climbs.length;
}

function main(): void {
  const { values } = parseArgs({ options: { list: { type: "boolean", default: false } } });
  const program = projectProgram();
  const stays = walkFrom(program);
  if (stays.length >= MAX_STAYS) throw new Error(`the walk reached its bound of ${MAX_STAYS} stays`);
  printed(`on every branch from ${START.file}:${START.fn}:${START.param}`, stays, values.list);
  const { ran } = billingTrip();
  printed("on the calls that run for the plain CSV bill", walkFrom(program, ranOnTrip(ran)), values.list);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
