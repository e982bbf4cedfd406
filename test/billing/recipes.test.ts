/**
 * docs/billing.md's recipes ("Beyond one machine") are the statements the engines' tests run
 * (test/billing/engines/recipes.ts): each, with the doc's places, is in the document word for word.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BIGQUERY,
  BIGQUERY_DOC_PLACES,
  filled,
  type Places,
  SPARK,
  SPARK_DOC_PLACES,
  TRINO,
  TRINO_DOC_PLACES,
} from "./engines/recipes.js";

const DOCS = readFileSync(new URL("../../docs/billing.md", import.meta.url), "utf8");

const RECIPES: [string, Readonly<Record<string, string>>, Places][] = [
  ["Spark", SPARK, SPARK_DOC_PLACES],
  ["Trino", TRINO, TRINO_DOC_PLACES],
  ["BigQuery", BIGQUERY, BIGQUERY_DOC_PLACES],
];

describe("docs/billing.md's recipes", () => {
  it.each(RECIPES)("holds every statement the %s test runs", (_engine, recipe, places) => {
    for (const [step, template] of Object.entries(recipe)) {
      expect(DOCS, step).toContain(filled(template, places));
    }
  });
});
