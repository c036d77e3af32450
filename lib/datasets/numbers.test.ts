// The numbers-from-results check: a figure stands when it is a value of the query it cites, in the
// forms people write (rounded to the digits written, separators, k / million / billion, a share as a
// percentage, a year of the query's filter), written with its own row's and column's labels; every
// example of issue 53 is tested both ways, and references or identifiers are not taken for figures.
import assert from "node:assert/strict";
import { test } from "node:test";
import { figureProblems, numbersIn, unsupportedNumbers, type StoredResult } from "./numbers";

const q1: StoredResult = {
  id: "q1",
  sql: "SELECT region, count(*) AS orders, sum(revenue) AS revenue, count(*) / sum(count(*)) OVER () AS share FROM sales WHERE year = 2023 GROUP BY 1 ORDER BY 1",
  columns: ["region", "orders", "revenue", "share"],
  rows: [["east", 4079, 480450, 0.20395], ["north", 5100, 28612345, 0.255], ["south", 5821, 1234.5678, 0.29105], ["west", 5000, 99, 0.25]],
  rowCount: 4,
};
const q2: StoredResult = { id: "q2", sql: "SELECT count(*) AS n FROM sales WHERE order_date >= '2021-01-01'", columns: ["n"], rows: [[20000]], rowCount: 1 };
const both = [q1, q2];
const check = (text: string, results = both) => unsupportedNumbers(text, results, "", { inlineCitations: true });

test("figures are read as written: separators, decimals, negatives, percentages, scale words and suffixes", () => {
  assert.deepEqual(numbersIn("North sold 1,234 units (12.35 each), -3 returns, 4.5% growth").map((n) => n.value), [1234, 12.35, -3, 4.5]);
  assert.deepEqual(numbersIn("28.6 million, 480k, 1.2bn, 3M, 2 billion and 20.4 percent").map((n) => n.value), [28.6e6, 480e3, 1.2e9, 3e6, 2e9, 20.4]);
});

test("references and identifiers are not figures", () => {
  assert.deepEqual(numbersIn("See [q2] and [ana-1-2]; Q3 sales in region2, task ana-1-1, the 2nd row, 5km, v2.1.3"), []);
});

test("kept: the issue's right forms — rounded, a share as a percentage, millions, a year of the query's filter", () => {
  for (const sentence of [
    "East brought in about 480,000 in revenue [q1].",
    "East brought in 480k in revenue [q1].",
    "East accounted for 20.4% of orders [q1].",
    "North's revenue was 28.6 million [q1].",
    "North's revenue was 28.6M [q1].",
    "North's revenue was 29 million [q1].",
    "In 2023, east had 4,079 orders [q1].",
    "East had 4,079 orders in 2023 [q1].",
    "Since 2021 there were 20,000 orders [q2].",
    "There were 4 regions [q1].",
  ]) assert.deepEqual(check(sentence), [], sentence);
});

test("a text in German or French writes its figures its own way: 4.079, 20,4 %, 1.234,57 — read so, and cut so", () => {
  for (const sentence of [
    "Im Jahr 2023 hatte der Osten 4.079 Bestellungen [q1].",
    "Der Osten hatte einen Anteil von 20,4 % an allen Bestellungen [q1].",
    "Der Süden lag im Durchschnitt bei 1.234,57 pro Bestellung [q1].",
    "Der Umsatz im Norden betrug 28,6 Millionen, also 28.612.345 [q1].",
    "L'est a reçu 4.079 commandes en 2023, soit 20,4 % du total [q1].",
    // A result's figure kept as the table wrote it, in a German sentence.
    "Im Jahr 2023 hatte der Osten 4,079 Bestellungen und einen Umsatz von 480,450 [q1].",
  ]) assert.deepEqual(check(sentence), [], sentence);
  assert.deepEqual(check("Der Osten hatte einen Anteil von 20,5 % an allen Bestellungen [q1]."), ["20,5 %"]);
  assert.deepEqual(check("Im Jahr 2023 hatte der Osten 4.179 Bestellungen [q1]."), ["4.179"]);
  // English is read as before: "4.079" is four and a bit.
  assert.deepEqual(check("In 2023, east had 4.079 orders [q1]."), ["4.079"]);
});

test("cut: the issue's wrong forms — wrong digits, a year the query does not hold", () => {
  assert.deepEqual(check("East brought in about 490,000 in revenue [q1]."), ["490,000"]);
  assert.deepEqual(check("East accounted for 20.5% of orders [q1]."), ["20.5%"]);
  assert.deepEqual(check("North's revenue was 28.7 million [q1]."), ["28.7 million"]);
  assert.deepEqual(check("In 2022, east had 4,079 orders [q1]."), ["2022"]);
  // A year is matched exactly, never rounded: 2020 does not stand for 2021.
  assert.deepEqual(check("Since 2020 there were 20,000 orders [q2]."), ["2020"]);
});

test("cut: the label written with a figure must be its row's — West had East's count", () => {
  const problems = figureProblems("West had 4,079 orders [q1].", both, { inlineCitations: true });
  assert.deepEqual(problems.map((p) => p.figure), ["4,079"]);
  assert.match(problems[0].reason, /4,079 is east's value in q1, not west's/);
  assert.deepEqual(check("East had 4,079 orders [q1]."), []);
  // Two labels in one sentence: each figure takes the nearest one before it in its clause.
  assert.deepEqual(check("West had 5,000 orders and east 4,079 [q1]."), []);
  assert.deepEqual(check("West had 4,079 orders and east 5,000 [q1]."), ["4,079", "5,000"]);
  assert.deepEqual(check("4,079 orders came from east, 5,000 from west [q1]."), []);
  assert.deepEqual(check("4,079 orders came from west, 5,000 from east [q1]."), ["4,079", "5,000"]);
  assert.deepEqual(check("West and east had 5,000 and 4,079 orders respectively [q1]."), []);
  // A parenthesis right after the figure names its row; one before it names the figure before.
  assert.deepEqual(check("Orders ranged from 4,079 (east) to 5,821 (south) [q1]."), []);
  assert.deepEqual(check("Orders ranged from 4,079 (south) to 5,821 (east) [q1]."), ["4,079", "5,821"]);
  assert.deepEqual(check("East (4,079 orders) trailed west (5,000) [q1]."), []);
  assert.deepEqual(check("In the east, 4,079 orders were placed; in the west, 5,000 [q1]."), []);
  assert.deepEqual(check("The east had the fewest orders (4,079), about 20.4% of the total [q1]."), []);
  // A table's rows, cited in the paragraph after it.
  assert.deepEqual(check("| region | orders |\n| east | 4,079 |\n| west | 5,000 |\n\nSource: [q1]"), []);
  assert.deepEqual(check("| region | orders |\n| east | 5,000 |\n\nSource: [q1]"), ["5,000"]);
  // A row count is the result's, not a row's.
  assert.deepEqual(check("West had 4 orders [q1]."), ["4"]);
});

test("cut: the column written with a figure must be its column", () => {
  assert.deepEqual(check("East had 4,079 in revenue [q1]."), ["4,079"]);
  assert.deepEqual(check("East had 4,079 orders and 480,450 in revenue [q1]."), []);
  assert.deepEqual(check("South averaged 1,234.57 per order [q1]."), []);
});

test("cut: a figure must be a value of the query it cites, not of any query", () => {
  const problems = figureProblems("East had 4,079 orders [q2].", both, { inlineCitations: true });
  assert.deepEqual(problems.map((p) => p.figure), ["4,079"]);
  assert.match(problems[0].reason, /not a value of q2/);
  assert.deepEqual(check("There were 20,000 orders [q1]."), ["20,000"]);
  // Uncited: the line's or the paragraph's citation counts; with none, the figure is unsupported.
  assert.deepEqual(check("East had 4,079 orders. That was the fewest [q1]."), []);
  assert.deepEqual(check("East had 4,079 orders.\nIt was the fewest [q1]."), []);
  assert.match(figureProblems("East had 4,079 orders.", both, { inlineCitations: true })[0].reason, /cites no query/);
  // With only one query, an uncited figure can only come from it.
  assert.deepEqual(check("East had 4,079 orders.", [q1]), []);
  // [q1, q2] cites both.
  assert.deepEqual(check("East had 4,079 orders of 20,000 [q1, q2]."), []);
});

test("rounding is to the digits written and moves a figure by at most 1% unless written as a magnitude", () => {
  const r: StoredResult[] = [{ rows: [["north", 1234, 12.3456], ["south", 87, 0.5]], rowCount: 2 }];
  assert.deepEqual(unsupportedNumbers("North: 1,234 units at 12.35 (12.3).", r), []);
  assert.deepEqual(unsupportedNumbers("North sold 1,240 units; 1,240 is a record.", r), ["1,240"]);
  assert.deepEqual(unsupportedNumbers("North: about 12.4 each.", r), ["12.4"]);
  assert.deepEqual(unsupportedNumbers("North: about 12 each.", r), ["12"]);
  assert.deepEqual(unsupportedNumbers("South: 0.5 and 50% [north is bigger].", r), []);
  assert.deepEqual(unsupportedNumbers("South fell 87 points, -87 in all.", r), []);
  // One significant digit is not a rounding of 1,234: "1,000" is not it.
  assert.deepEqual(unsupportedNumbers("North sold 1,000 units.", r), ["1,000"]);
});

test("dates: a day and a year of a date in the result or the SQL", () => {
  const r: StoredResult[] = [{ id: "q1", sql: "SELECT day, sum(units) AS units FROM s WHERE day BETWEEN '2024-03-01' AND '2024-03-31' GROUP BY 1", columns: ["day", "units"], rows: [["2024-03-15", 42], ["2024-03-16", 17]], rowCount: 2 }];
  assert.deepEqual(unsupportedNumbers("On 15 March 2024 the shop sold 42 units [q1].", r, "", { inlineCitations: true }), []);
  assert.deepEqual(unsupportedNumbers("On March 16, 2024 it sold 17 [q1].", r, "", { inlineCitations: true }), []);
  assert.deepEqual(unsupportedNumbers("On 20 March 2024 it sold 17 [q1].", r, "", { inlineCitations: true }), ["20"]);
  assert.deepEqual(unsupportedNumbers("In 2025 it sold 17 [q1].", r, "", { inlineCitations: true }), ["2025"]);
});

test("digits inside a label are its name; 64-bit values stored as text are numbers", () => {
  const r: StoredResult[] = [{ columns: ["route", "riders", "id"], rows: [["Route 66", 1200, "9007199254740993"], ["Route 9", 300, "12"]], rowCount: 2 }];
  assert.deepEqual(unsupportedNumbers("Route 66 carried 1,200 riders; its id is 9007199254740993.", r), []);
  assert.deepEqual(unsupportedNumbers("Route 9 carried 1,200 riders.", r), ["1,200"]);
});

test("a number the objective states is not a claim of the output", () => {
  assert.deepEqual(unsupportedNumbers("The top 5 regions by orders: east 4,079 [q1].", both, "Rank the top 5 regions", { inlineCitations: true }), []);
  assert.deepEqual(unsupportedNumbers("The top 5 regions by orders: east 4,079 [q1].", both, "", { inlineCitations: true }), ["5"]);
});

test("a discovery's figures come from its cited results, whichever of them, with their labels", () => {
  const cited = [{ rows: q1.rows, rowCount: q1.rowCount, columns: q1.columns }, { rows: q2.rows, rowCount: 1, columns: q2.columns }];
  assert.deepEqual(unsupportedNumbers("East had 4,079 of 20,000 orders\nwest 5,000; north 5,100", cited), []);
  assert.deepEqual(unsupportedNumbers("West had 4,079 orders", cited), ["4,079"]);
});
