// The scaling chart of the benchmark (manifests time vs kinds next to its peers, envtest memory vs
// objects), rendered to SVG with Vega (a bench-only dev dependency) from rows whose names carry a size.
import * as vega from "vega";

const PANELS = [
  {
    title: "opgen manifests: time (ms) vs kinds (30 fields each)",
    series: [
      { pattern: /^manifests\.kinds(\d+)$/, opgen: true, peer: true },
      { pattern: /^manifests\.kinds(\d+)\.tjs$/, opgen: false, peer: true },
    ],
  },
  {
    title: "envtest: KiB per stored object vs objects (thousands)",
    series: [{ pattern: /^envtest\.memory-per-object\.(\d+)k$/, opgen: true, peer: false }],
  },
];

function panel(rows, { title, series }) {
  const values = [];
  for (const { pattern, opgen, peer } of series) {
    for (const r of rows) {
      const m = pattern.exec(r.name);
      if (!m) continue;
      if (opgen) values.push({ x: Number(m[1]), y: r.value, series: "opgen" });
      if (peer && r.peerValue !== undefined)
        values.push({ x: Number(m[1]), y: r.peerValue, series: r.peer });
    }
  }
  return values.filter((v) => v.series === "opgen").length > 1 ? { title, values } : undefined;
}

export async function renderChart(rows) {
  const panels = PANELS.map((p) => panel(rows, p)).filter(Boolean);
  if (panels.length === 0) return undefined;
  const width = 360;
  const height = 220;
  const spec = {
    $schema: "https://vega.github.io/schema/vega/v5.json",
    padding: 10,
    layout: { columns: panels.length, padding: 60 },
    marks: panels.map((p, i) => ({
      type: "group",
      title: { text: p.title, fontSize: 12 },
      encode: { update: { width: { value: width }, height: { value: height } } },
      data: [{ name: `d${i}`, values: p.values }],
      scales: [
        {
          name: "x",
          type: "linear",
          domain: { data: `d${i}`, field: "x" },
          range: [0, width],
          zero: true,
          nice: true,
        },
        {
          name: "y",
          type: "linear",
          domain: { data: `d${i}`, field: "y" },
          range: [height, 0],
          zero: true,
          nice: true,
        },
        {
          name: "c",
          type: "ordinal",
          domain: { data: `d${i}`, field: "series" },
          range: "category",
        },
      ],
      axes: [
        { orient: "bottom", scale: "x", grid: false },
        { orient: "left", scale: "y", grid: true },
      ],
      legends: [{ fill: "c", orient: "bottom", direction: "horizontal", labelLimit: 400 }],
      marks: [
        {
          type: "group",
          from: { facet: { name: `s${i}`, data: `d${i}`, groupby: "series" } },
          marks: [
            {
              type: "line",
              from: { data: `s${i}` },
              sort: { field: "datum.x" },
              encode: {
                enter: {
                  x: { scale: "x", field: "x" },
                  y: { scale: "y", field: "y" },
                  stroke: { scale: "c", field: "series" },
                  strokeWidth: { value: 2 },
                },
              },
            },
            {
              type: "symbol",
              from: { data: `s${i}` },
              encode: {
                enter: {
                  x: { scale: "x", field: "x" },
                  y: { scale: "y", field: "y" },
                  fill: { scale: "c", field: "series" },
                  size: { value: 30 },
                },
              },
            },
          ],
        },
      ],
    })),
  };
  const view = new vega.View(vega.parse(spec), { renderer: "none" });
  return view.toSVG();
}
