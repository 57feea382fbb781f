// The board as SVG, built in the browser from data: the printed map (GET /api/board) once, then a
// side's scene (the `scene` of each view: counters, markers) over it.  Coordinates are in hex radii;
// hexes are flat-topped.  Nothing here talks to the server.

const NS = "http://www.w3.org/2000/svg";
const SCALE = 34; // pixels per hex radius
const MARKS = { selected: "#ffd600", attacking: "#ff6e00", defending: "#d600be", fpf: "#00c8e6" };

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, content, size, fill, attrs = {}) {
  const t = el("text", { x, y, "font-size": size, fill, "text-anchor": "middle", "dominant-baseline": "central", ...attrs }, parent);
  t.textContent = content;
  return t;
}

function pts(points) {
  return points.map(([x, y]) => `${x},${y}`).join(" ");
}

// The map sheet: terrain, lines (coast, rivers, cliffs, roads), areas (beaches), hex numbers,
// objective rings; returns the layers the scene is drawn into.
export function drawBoard(svg, board) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-0.2 -0.2 ${board.width + 0.4} ${board.height + 0.4}`);
  svg.setAttribute("width", Math.round((board.width + 0.4) * SCALE));
  svg.setAttribute("height", Math.round((board.height + 0.4) * SCALE));
  const map = el("g", { id: "map" }, svg);
  const terrain = el("g", { id: "terrain" }, map);
  board.hexes.forEach((hex, h) => {
    const style = board.terrains[hex.terrain] || { fill: "#cccccc" };
    const g = el("g", { transform: `translate(${hex.x} ${hex.y})`, "data-hex": h, "data-label": hex.label }, terrain);
    el("path", { d: board.hex_path, fill: style.fill, stroke: style.passable ? "#6e6850" : "#96c0e0", "stroke-width": 0.025 }, g);
    text(g, 0, -0.68, hex.label, 0.24, style.passable ? "#463f30" : "#a8c8e4");
    if (hex.name) {
      const t = el("title", {}, g);
      t.textContent = `${hex.label} ${hex.name}`;
    }
  });
  const areas = el("g", { id: "areas" }, map);
  for (const area of board.areas) {
    const style = board.area_styles[area.kind] || { fill: "#eeeeee" };
    el("polygon", { points: pts(area.points), fill: style.fill }, areas);
  }
  const lines = el("g", { id: "lines", "stroke-linecap": "round", fill: "none" }, map);
  for (const line of board.lines) {
    const style = board.line_styles[line.kind] || { stroke: "#000", width: 0.05 };
    const attrs = { points: pts(line.points), stroke: style.stroke, "stroke-width": style.width, "data-kind": line.kind };
    if (style.dash) attrs["stroke-dasharray"] = style.dash;
    el("polyline", attrs, lines);
  }
  const objectives = el("g", { id: "objectives" }, map);
  for (const obj of board.objectives) {
    const hex = board.hexes[obj.hex];
    el("circle", { cx: hex.x, cy: hex.y, r: 0.8, fill: "none", stroke: "#d6a000", "stroke-width": 0.08 }, objectives);
  }
  const layers = {
    markers: el("g", { id: "markers" }, svg),
    highlight: el("g", { id: "highlight" }, svg),
    pieces: el("g", { id: "pieces" }, svg),
    targets: el("g", { id: "targets" }, svg),
  };
  return layers;
}

function symbol(parent, kind, x0, y0, w, h, ink) {
  el("rect", { x: x0, y: y0, width: w, height: h, fill: "none", stroke: ink, "stroke-width": 0.03 }, parent);
  const cx = x0 + w / 2, cy = y0 + h / 2;
  if (kind === "artillery") el("circle", { cx, cy, r: h * 0.2, fill: ink }, parent);
  else if (kind === "armor") el("rect", { x: x0 + w * 0.18, y: y0 + h * 0.22, width: w * 0.64, height: h * 0.56, rx: h * 0.28, fill: "none", stroke: ink, "stroke-width": 0.03 }, parent);
  else if (kind === "engineer") el("polyline", { points: pts([[x0 + w * 0.25, y0 + h * 0.7], [x0 + w * 0.25, y0 + h * 0.3], [x0 + w * 0.75, y0 + h * 0.3], [x0 + w * 0.75, y0 + h * 0.7]]), fill: "none", stroke: ink, "stroke-width": 0.03 }, parent);
  else if (kind === "hq") {
    el("line", { x1: x0 + w * 0.2, y1: y0 + h * 0.15, x2: x0 + w * 0.2, y2: y0 + h * 0.85, stroke: ink, "stroke-width": 0.03 }, parent);
    el("polygon", { points: pts([[x0 + w * 0.2, y0 + h * 0.15], [x0 + w * 0.75, y0 + h * 0.32], [x0 + w * 0.2, y0 + h * 0.5]]), fill: ink }, parent);
  } else if (kind === "marker") el("circle", { cx, cy, r: h * 0.3, fill: "none", stroke: ink, "stroke-width": 0.03 }, parent);
  else if (kind === "infantry") {
    el("line", { x1: x0, y1: y0, x2: x0 + w, y2: y0 + h, stroke: ink, "stroke-width": 0.03 }, parent);
    el("line", { x1: x0, y1: y0 + h, x2: x0 + w, y2: y0, stroke: ink, "stroke-width": 0.03 }, parent);
  }
}

function designation(name) {
  const words = name.replace("(arty)", "").split(/\s+/).filter(Boolean);
  const tail = words.filter((w) => w.startsWith("(")).slice(0, 1);
  const head = words[0] && words[0].includes("/") ? words.slice(0, 1) : words.filter((w) => !w.startsWith("(")).slice(0, 2);
  const out = head.concat(tail).join(" ");
  return out.length > 10 ? out.slice(0, 9) + "." : out;
}

// One counter, centred at (cx, cy), `size` hex radii across the half side.
export function drawCounter(parent, board, piece, cx, cy, size = 0.56) {
  const side = board.sides[piece.side] || { fill: "#ddd", ink: "#111" };
  const g = el("g", { class: "piece", "data-unit": piece.id, "data-hex": piece.hex, "data-side": piece.side }, parent);
  const s = size;
  if (piece.mark && MARKS[piece.mark]) {
    el("rect", { x: cx - s - 0.1, y: cy - s - 0.1, width: 2 * s + 0.2, height: 2 * s + 0.2, rx: 0.12, fill: MARKS[piece.mark] }, g);
  }
  el("rect", { x: cx - s + 0.04, y: cy - s + 0.04, width: 2 * s, height: 2 * s, rx: 0.07, fill: "#28281e" }, g);
  el("rect", { x: cx - s, y: cy - s, width: 2 * s, height: 2 * s, rx: 0.07, fill: side.fill, stroke: "#1e1e14", "stroke-width": 0.02 }, g);
  if (piece.face_up === false) {  // a face-down counter: its back (a type, where the rules print one)
    if (piece.symbol && piece.symbol !== "other") symbol(g, piece.symbol, cx - 0.28 * s / 0.56, cy - s + 0.31, 0.56 * s / 0.56, 0.34, side.ink);
    text(g, cx, cy + s - 0.2, "?", 0.34, side.ink, { "font-weight": "bold" });
  } else {
    text(g, cx, cy - s + 0.17, designation(piece.name), 0.19, side.ink);
    symbol(g, piece.symbol, cx - 0.28 * s / 0.56, cy - s + 0.31, 0.56 * s / 0.56, 0.34, side.ink);
    text(g, cx, cy + s - 0.17, piece.values, 0.28, side.ink, { "font-weight": "bold" });
  }
  const t = el("title", {}, g);
  t.textContent = piece.face_up === false ? "a face-down counter" : `${piece.name} ${piece.values}${piece.mark ? " (" + piece.mark + ")" : ""}`;
  return g;
}

// The scene of a view over the map: objective owners, counters (stacks fanned out), and the hexes
// the side may click (`legalHexes`: hex -> description), each calling `onHex(h)`.
export function drawScene(layers, board, scene, legalHexes, onHex) {
  layers.markers.replaceChildren();
  layers.pieces.replaceChildren();
  layers.highlight.replaceChildren();
  layers.targets.replaceChildren();
  const perHex = new Map(); // markers on one hex are fanned out down its right edge
  for (const m of scene.markers) {
    const hex = board.hexes[m.hex];
    if (!hex) continue;
    const i = perHex.get(m.hex) || 0;
    perHex.set(m.hex, i + 1);
    const y = hex.y - 0.12 - 0.26 * (i - 1);
    const owner = board.sides[m.owner];
    const g = el("g", { class: "marker", "data-hex": m.hex, "data-owner": m.owner, "data-kind": m.kind }, layers.markers);
    el("rect", { x: hex.x + 0.6, y, width: 0.3, height: 0.22, fill: owner ? owner.fill : "#c8c8c8", stroke: "#3c3c3c", "stroke-width": 0.015 }, g);
    if (owner) el("circle", { cx: hex.x + 0.75, cy: y + 0.11, r: 0.06, fill: owner.ink }, g);
    else if (m.kind !== "objective") text(g, hex.x + 0.75, y + 0.11, (m.kind || "?").slice(0, 1).toUpperCase(), 0.16, "#222");
    const t = el("title", {}, g);
    t.textContent = m.kind === "objective" ? `${m.text}: ${owner ? owner.name : "nobody"}` : m.text;
  }
  const stacks = new Map();
  for (const p of scene.pieces) {
    if (p.hex < 0) continue;
    if (!stacks.has(p.hex)) stacks.set(p.hex, []);
    stacks.get(p.hex).push(p);
  }
  for (const [h, pieces] of stacks) {
    const hex = board.hexes[h];
    pieces.forEach((p, i) => drawCounter(layers.pieces, board, p, hex.x + 0.1 * i, hex.y - 0.1 * i, pieces.length > 1 ? 0.5 : 0.56));
  }
  for (const [h, description] of legalHexes) {
    const hex = board.hexes[h];
    const ring = el("path", { d: board.hex_path, transform: `translate(${hex.x} ${hex.y}) scale(0.93)`, fill: "none", stroke: "#ff2d2d", "stroke-width": 0.09 }, layers.highlight);
    ring.setAttribute("data-hex", h);
    const target = el("path", { d: board.hex_path, transform: `translate(${hex.x} ${hex.y})`, fill: "#ffffff", "fill-opacity": 0.001, class: "hex-legal", "data-hex": h, "data-label": hex.label }, layers.targets);
    const t = el("title", {}, target);
    t.textContent = description;
    target.addEventListener("click", () => onHex(h));
  }
}

// The boxes of a scene (reinforcements, pools, a hand of cards) as small SVGs in `container`.
export function drawBoxes(container, board, scene) {
  container.replaceChildren();
  for (const box of scene.boxes || []) {
    const h3 = document.createElement("h3");
    h3.textContent = `${box.title} (${box.pieces.length})`;
    container.appendChild(h3);
    const per = 6, rows = Math.ceil(box.pieces.length / per);
    const svg = el("svg", { viewBox: `0 0 ${per * 1.3} ${rows * 1.3}`, width: per * 1.3 * 40, height: rows * 1.3 * 40, class: "box" });
    box.pieces.forEach((p, i) => drawCounter(svg, board, p, 0.65 + 1.3 * (i % per), 0.65 + 1.3 * Math.floor(i / per)));
    container.appendChild(svg);
  }
}
