// The rating over time, drawn by hand in SVG: a step chart (a rating holds until the next
// tournament moves it), one step per tournament, evenly spaced — tournaments come in sessions,
// and a time axis would crush a session into one line. The first and last days are labelled.

import { formatDay, formatNumber, t } from "../../strings.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 168;
const PAD = { left: 40, right: 12, top: 14, bottom: 26 };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return el;
}

// Round numbers for the horizontal grid: 2 to 4 lines within [low, high].
function ticks(low, high) {
  const span = Math.max(1, high - low);
  const step = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000].find((s) => span / s <= 3) || 1000;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) out.push(v);
  return out;
}

// `points`: the API's rating_history, oldest first ({at, rating}).
export function ratingChart(points) {
  const ratings = points.map((p) => p.rating);
  const min = Math.min(...ratings);
  const max = Math.max(...ratings);
  const margin = Math.max(10, Math.round((max - min) * 0.15));
  const low = min - margin;
  const high = max + margin;
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (points.length === 1 ? innerW / 2 : (i / (points.length - 1)) * innerW);
  const y = (r) => PAD.top + (1 - (r - low) / (high - low)) * innerH;
  const grid = ticks(low, high).map((v) =>
    svg(
      "g",
      { class: "grid" },
      svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v) }),
      svg("text", { x: PAD.left - 6, y: y(v) + 4, "text-anchor": "end" }, formatNumber(v)),
    ),
  );
  let path = `M ${x(0)} ${y(ratings[0])}`;
  for (let i = 1; i < points.length; i++) path += ` H ${x(i)} V ${y(ratings[i])}`;
  const area = `${path} V ${PAD.top + innerH} H ${x(0)} Z`;
  const last = points.length - 1;
  const dots = points.map((p, i) =>
    svg("circle", { class: i === last ? "dot last" : i > 0 && p.rating < ratings[i - 1] ? "dot down" : "dot", cx: x(i), cy: y(p.rating), r: i === last ? 4.5 : 3 }),
  );
  const first = points[0];
  const label = t("stats.chart.label", {
    n: last,
    first: first.rating,
    last: ratings[last],
    high: max,
    low: min,
  });
  return svg(
    "svg",
    { class: "rating-chart", id: "rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": label },
    svg("title", {}, label),
    ...grid,
    svg("path", { class: "area", d: area }),
    svg("path", { class: "line", d: path }),
    ...dots,
    svg("text", { class: "now", x: x(last), y: y(ratings[last]) - 10, "text-anchor": last === 0 ? "middle" : "end" }, formatNumber(ratings[last])),
    svg("text", { class: "day", x: PAD.left, y: HEIGHT - 6, "text-anchor": "start" }, formatDay(first.at)),
    last > 0 ? svg("text", { class: "day", x: WIDTH - PAD.right, y: HEIGHT - 6, "text-anchor": "end" }, formatDay(points[last].at)) : null,
  );
}
