// A report as an export document, for the exports' tests: headings at two levels, a list, a
// table, citations, a descriptive link, typography and enough text for several pages.
import { fileStem, type ExportDocument } from "./document";

export const A = "https://energy.example/battery-prices";
export const B = "https://grid.example/capacity?year=2023&region=eu";
const body = `In short: battery pack prices fell 14% in 2023 [1](${A}).

## Key findings

- Prices fell to **139 dollars** per kWh [1](${A}).
- Capacity in Europe doubled to 40 GW [2](${B}); see the [agency's page](https://iea.example/report).

### Capacity by year

| Year | GW |
|------|----|
| 2021 | 20 |
| 2023 | 40 |

## Open questions

${Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}: the sources do not settle every aspect of grid storage; newer data — “primary” sources, Zürich’s and São Paulo’s figures — would strengthen the picture.`).join("\n\n")}
`;

export const DOC: ExportDocument = {
  title: "Grid-scale battery storage economics",
  question: "How have the economics of grid-scale battery storage changed since 2020?",
  date: "2026-11-21",
  settings: [
    { label: "Depth × breadth", value: "2 × 3" },
    { label: "Counts", value: "9 queries · 30 page analyses · 12 sources read · 2 cited" },
  ],
  supportRate: 0.75,
  body,
  sources: [
    { n: 1, url: A, title: "Battery prices survey 2023" },
    { n: 2, url: B, title: "European grid capacity & storage" },
  ],
  fileStem: fileStem("How have the economics of grid-scale battery storage changed since 2020?", "2026-11-21"),
};

