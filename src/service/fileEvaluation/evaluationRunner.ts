import type { Readable } from "node:stream";
import type { FileRefusal, FileRequest } from "./evaluationRequest.js";

/*
 * The port of file evaluation: what the use case (src/service/fileEvaluation.ts) asks of whatever
 * runs the command line's `impact-service evaluate` on a received file — the one interface through
 * which a file reaches the inventory's or the billing's evaluation. A runner admits the runs, gives
 * each a private place for its file, starts the run with the request's options within the page's
 * bounds, and tells how it ended. src/evaluationProcess/ implements it with a child process; a
 * test gives a fake one (test/service/fileEvaluation.test.ts).
 */

/** A slot held: given back once, whoever calls first. */
export interface Slot {
  readonly release: () => void;
}

/** What a run is asked to do with the file of its place: the command's options. */
export interface RunOptions {
  /** The output's name as the run writes it (`.gz` after a CSV's: the command writes it gzipped). */
  readonly output: string;
  /** The request's values: the output format, the edition, the criteria. */
  readonly request: FileRequest;
}

/** How a run ended. */
export type RunOutcome =
  /** Stopped by a bound of the page (its time, memory, files' bytes): the sentence saying which. */
  | { readonly ended: "stopped"; readonly refusal: string }
  /** The command refused the file and wrote nothing: its one line, in the page's words. */
  | { readonly ended: "refused"; readonly refusal: string }
  /** The command ran to its end and wrote its files: its exit code and summary (its stderr). */
  | { readonly ended: "ran"; readonly exitCode: number; readonly summary: string };

/** Where a run is, as the command last told it: its stage, its lines, the share done. */
export interface RunProgress {
  readonly stage?: string;
  readonly lines?: number;
  readonly done?: number;
}

/** A file a run writes: its output (named by `RunOptions.output`) or its report. */
export type WrittenRole = "output" | "report";

/** A run started. */
export interface StartedRun {
  /** Settles once the run has ended, however it ended. */
  readonly outcome: Promise<RunOutcome>;
  /** The run's progress now. */
  readonly progress: () => RunProgress;
  /** Each stage the run told, as first told, in order: all of them once `outcome` has settled. */
  readonly stages: () => readonly RunProgress[];
  /** A file the run wrote, read in parts of `partBytes`; null when the run did not write it. */
  readonly written: (role: WrittenRole, partBytes: number) => Promise<Readable | null>;
  /** Ends the run whatever its state: stopped, its slot given back, its place removed; once. */
  readonly close: () => Promise<void>;
}

/** What a run is tied to: its signal (aborted: the run is closed) and its slot. */
export interface RunTies {
  readonly signal: AbortSignal;
  readonly slot: Slot;
}

/** A run's private place, before its run starts. */
export interface RunPlace {
  /** The path the received file is written to. */
  readonly file: string;
  /** Starts the run on the file; from then on the run owns the place and the slot. */
  readonly start: (options: RunOptions, ties: RunTies) => StartedRun;
  /** Removes the place of a run that will not start. */
  readonly remove: () => Promise<void>;
}

/** The port: what runs the command line on a file. */
export interface FileRunner {
  /** Which command the runs start (the service's start-up line says it), or why none can. */
  readonly command: string;
  /** A slot for a client (its address), or the refusal (503) when none is free to it. */
  readonly admit: (client: string) => Slot | FileRefusal;
  /** A private place for a file named `input`; a refusal (503) when no command can run it. */
  readonly open: (input: string) => Promise<RunPlace>;
}
