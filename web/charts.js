// Two small inline-SVG charts for the fairness monitor, no framework: a running return with its
// expectation and 95% band, and a histogram against its expected count per bin. Each returns
// a <figure> with a caption, labelled axes and a legend, readable at a glance.
const NS = 'http://www.w3.org/2000/svg';
const W = 480;
const H = 250;
const PAD = { left: 56, right: 12, top: 28, bottom: 40 };

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

function frame(label) {
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, class: 'chart' });
  root.append(svg('title', {}, label));
  return root;
}

function scale([d0, d1], [r0, r1]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v) => r0 + (v - d0) * k;
}

/** Axis lines, ticks and labels; `format` prints a y tick, `xTicks` are data values. */
function axes(root, { x, y, xTicks, yTicks, xLabel, yLabel, format }) {
  const g = svg('g', { class: 'axis' });
  g.append(svg('line', { x1: PAD.left, y1: H - PAD.bottom, x2: W - PAD.right, y2: H - PAD.bottom }));
  g.append(svg('line', { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom }));
  for (const t of yTicks) {
    g.append(svg('line', { x1: PAD.left - 4, y1: y(t), x2: W - PAD.right, y2: y(t), class: 'grid' }));
    g.append(svg('text', { x: PAD.left - 6, y: y(t) + 4, 'text-anchor': 'end' }, format(t)));
  }
  for (const t of xTicks) {
    g.append(svg('text', { x: x(t), y: H - PAD.bottom + 16, 'text-anchor': 'middle' }, String(t)));
  }
  g.append(svg('text', { x: (PAD.left + W - PAD.right) / 2, y: H - 6, 'text-anchor': 'middle', class: 'label' }, xLabel));
  g.append(svg('text', { x: 12, y: (PAD.top + H - PAD.bottom) / 2, transform: `rotate(-90 12 ${(PAD.top + H - PAD.bottom) / 2})`, 'text-anchor': 'middle', class: 'label' }, yLabel));
  root.append(g);
}

/** A legend row at the top right: [[class, text], …]. */
function legend(root, entries) {
  let x = W - PAD.right;
  const g = svg('g', { class: 'legend' });
  for (const [cls, text] of [...entries].reverse()) {
    const width = 26 + text.length * 6.2;
    x -= width;
    g.append(svg('rect', { x, y: 8, width: 14, height: 10, class: cls }));
    g.append(svg('text', { x: x + 18, y: 17 }, text));
  }
  root.append(g);
}

/** Round tick values (steps of 1, 2, 2.5 or 5 × 10^k) inside [lo, hi], about `count` of them. */
function ticks([lo, hi], count = 5) {
  const rough = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough);
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

/** Keeps at most `max` evenly spaced points (the last one always). */
function thin(points, max = 500) {
  if (points.length <= max) return points;
  const every = points.length / max;
  const kept = Array.from({ length: max - 1 }, (_, i) => points[Math.floor(i * every)]);
  return [...kept, points.at(-1)];
}

/**
 * Running return to player over a game's rounds. `points`: [{n, realized, expected, lo, hi}]
 * after each round n. The y range leaves out the first few rounds' very wide band.
 */
export function returnChart({ title, points }) {
  const figure = document.createElement('figure');
  const root = frame(title);
  const shown = thin(points);
  const settled = shown.filter((p) => p.n >= Math.min(20, points.length));
  const values = settled.flatMap((p) => [p.realized, p.lo, p.hi]);
  const yDomain = [Math.max(0, Math.min(...values, 0.9) - 0.02), Math.min(3, Math.max(...values, 1.05) + 0.02)];
  const xDomain = [1, Math.max(2, points.at(-1)?.n ?? 2)];
  const x = scale(xDomain, [PAD.left, W - PAD.right]);
  const y = scale(yDomain, [H - PAD.bottom, PAD.top]);
  const clampY = (v) => y(Math.min(yDomain[1], Math.max(yDomain[0], v)));
  axes(root, { x, y, xTicks: [xDomain[0], Math.round((xDomain[0] + xDomain[1]) / 2), xDomain[1]], yTicks: ticks(yDomain), xLabel: 'rounds (bet order)', yLabel: 'paid out / wagered', format: (t) => `${Number((100 * t).toFixed(1))}%` });
  if (shown.length > 0) {
    const upper = shown.map((p) => `${x(p.n)},${clampY(p.hi)}`);
    const lower = shown.map((p) => `${x(p.n)},${clampY(p.lo)}`).reverse();
    root.append(svg('polygon', { points: [...upper, ...lower].join(' '), class: 'band' }));
    root.append(svg('polyline', { points: shown.map((p) => `${x(p.n)},${clampY(p.expected)}`).join(' '), class: 'expected' }));
    root.append(svg('polyline', { points: shown.map((p) => `${x(p.n)},${clampY(p.realized)}`).join(' '), class: 'realized' }));
  }
  legend(root, [['realized', 'realized'], ['expected', 'exact expectation'], ['band', '95% band']]);
  figure.append(root, Object.assign(document.createElement('figcaption'), { textContent: title }));
  return figure;
}

/** Bars of `bins` against the `expected` count per bin (a dashed line), x labels every `every`. */
export function histogram({ title, bins, expected, every, xLabel }) {
  const figure = document.createElement('figure');
  const root = frame(title);
  const top = Math.max(1, ...bins, ...expected) * 1.1;
  const x = scale([0, bins.length], [PAD.left, W - PAD.right]);
  const y = scale([0, top], [H - PAD.bottom, PAD.top]);
  const yTicks = ticks([0, top]).filter(Number.isInteger);
  axes(root, { x, y, xTicks: [], yTicks, xLabel, yLabel: 'rounds', format: String });
  const g = svg('g', { class: 'bars' });
  const width = x(1) - x(0);
  for (const [i, count] of bins.entries()) {
    g.append(svg('rect', { x: x(i) + width * 0.1, y: y(count), width: width * 0.8, height: y(0) - y(count) }));
    if (i % every === 0) g.append(svg('text', { x: x(i) + width / 2, y: H - PAD.bottom + 16, 'text-anchor': 'middle', class: 'tick' }, String(i)));
  }
  root.append(g);
  const line = expected.map((e, i) => `${x(i)},${y(e)} ${x(i + 1)},${y(e)}`).join(' ');
  root.append(svg('polyline', { points: line, class: 'expected' }));
  legend(root, [['bar', 'observed'], ['expected', 'expected if fair']]);
  figure.append(root, Object.assign(document.createElement('figcaption'), { textContent: title }));
  return figure;
}
